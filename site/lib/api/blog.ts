/**
 * The blog calls (spec 7 "blog calls" and "blog admin calls"): a published post and its view
 * count for the article pages, then the blog admin's calls, all with the bearer token.
 * Types only from the contracts: importing their values would pull TypeBox into the bundle.
 */
import { isHTTPError } from 'ky';
import type {
  AdminPost,
  AdminPostListResponse,
  AdminPostResponse,
  AdminUploadResponse,
  BuildStatus,
  BuildStatusResponse,
  InlineUploadResponse,
  PostDetailResponse,
  PostInput,
} from '../../../shared/api/blog.ts';
import { api, readApiError } from './http.ts';

const postPath = (slug: string) => `/api/blog/posts/${encodeURIComponent(slug)}`;

/** A published post by slug (the article shell and the view count read it). */
export async function getPublishedPost(
  slug: string,
  signal?: AbortSignal,
): Promise<PostDetailResponse> {
  return api.get(postPath(slug), { signal }).json<PostDetailResponse>();
}

/** Count this visit. Not retried: a repeated POST would count the visit twice. */
export async function countPostView(
  slug: string,
  signal?: AbortSignal,
): Promise<{ success: boolean; data: { view_count: number } }> {
  return api.post(`${postPath(slug)}/view`, { signal, retry: 0 }).json();
}

// ---------- Blog admin ----------

const POSTS_PATH = '/api/blog/admin/posts';

/** What the permission check found (spec 6 "Blog manager"). */
export type AccessCheck = 'allowed' | 'forbidden' | 'signed-out';

/** Spec 6: the check requests one admin post; 403 means no rights, any other failure means sign in. */
export async function checkBlogAccess(): Promise<AccessCheck> {
  try {
    await api.get(POSTS_PATH, { searchParams: { limit: 1 } });
    return 'allowed';
  } catch (error) {
    if (isHTTPError(error) && error.response.status === 403) return 'forbidden';
    console.error('[blog-admin] permission check failed', error);
    return 'signed-out';
  }
}

/** Every post, all statuses, newest first (the server orders them; no paging). */
export async function listPosts(): Promise<AdminPost[]> {
  const body = await api.get(POSTS_PATH).json<AdminPostListResponse>();
  if (!body?.success || !Array.isArray(body.data)) throw new Error('Unexpected list answer');
  return body.data;
}

export async function getPost(id: string): Promise<AdminPost> {
  const body = await api.get(`${POSTS_PATH}/${encodeURIComponent(id)}`).json<AdminPostResponse>();
  if (!body?.success || !body.data) throw new Error('Unexpected post answer');
  return body.data;
}

/** Create (no id) or update; answers the stored post and the server's message. */
export async function savePost(
  id: string | null,
  input: Required<PostInput>,
): Promise<{ post: AdminPost; message: string }> {
  // A save is not repeated on a network error: a retried create could store the post twice.
  const request = id
    ? api.put(`${POSTS_PATH}/${encodeURIComponent(id)}`, { json: input, retry: 0 })
    : api.post(POSTS_PATH, { json: input, retry: 0 });
  const body = await request.json<AdminPostResponse>();
  if (!body?.success || !body.data) throw new Error(messageOf(body) || 'Unexpected save answer');
  return { post: body.data, message: body.message };
}

export async function deletePost(id: string): Promise<string> {
  const body = await api
    .delete(`${POSTS_PATH}/${encodeURIComponent(id)}`, { retry: 0 })
    .json<{ success: boolean; message: string }>();
  if (!body?.success) throw new Error(messageOf(body) || 'Unexpected delete answer');
  return body.message;
}

function imageForm(image: Blob, name: string): FormData {
  const form = new FormData();
  form.append('image', image, name);
  return form;
}

/** Featured image (spec 3 "Upload responses": admin upload gives data.url). */
export async function uploadFeaturedImage(file: File): Promise<string> {
  const body = await api
    .post('/api/blog/admin/upload', { body: imageForm(file, file.name), retry: 0 })
    .json<AdminUploadResponse>();
  if (!body?.success || !body.data?.url) throw new Error(messageOf(body) || 'Upload failed');
  return body.data.url;
}

/** Failure of the inline upload, with the reason spec 8 names. */
export class InlineUploadError extends Error {}

/**
 * Inline image (spec 3: success, imageUrl, message). Spec 8: the reason is the server's message,
 * 'Upload failed' for a refused request without one, or 'Unknown error'.
 */
export async function uploadInlineImage(image: Blob, name: string): Promise<string> {
  let body: InlineUploadResponse | { success: false; message?: string } | undefined;
  try {
    body = await api
      .post('/api/blog/upload-image', { body: imageForm(image, name), retry: 0 })
      .json<InlineUploadResponse>();
  } catch (error) {
    const server = readApiError(error)?.message;
    throw new InlineUploadError(server || (isHTTPError(error) ? 'Upload failed' : 'Unknown error'));
  }
  if (!body?.success || !body.imageUrl) {
    throw new InlineUploadError(messageOf(body) || 'Upload failed');
  }
  return body.imageUrl;
}

export async function getBuildStatus(): Promise<BuildStatus> {
  // Polled every 2 s: a failed poll is simply the next poll's job, so no retries here.
  const body = await api
    .get('/api/blog/admin/build-status', { retry: 0 })
    .json<BuildStatusResponse>();
  if (!body?.success || !body.data) throw new Error('Unexpected build status answer');
  return body.data;
}

function messageOf(body: unknown): string {
  if (typeof body === 'object' && body !== null && 'message' in body) {
    const { message } = body as { message: unknown };
    if (typeof message === 'string') return message;
  }
  return '';
}

/** The reason to show after "Save failed: " and the like: the server's message, else the error's. */
export function failureReason(error: unknown): string {
  const server = readApiError(error)?.message;
  if (server) return server;
  if (isHTTPError(error)) return `HTTP error: ${error.response.status}`;
  if (error instanceof Error && error.message) return error.message;
  return 'Unknown error';
}
