/**
 * The people and rows the data API tests share: two users with video tasks and ledger rows, a
 * blog editor with a draft and a published post, and an operator signed in through the admin
 * sign-in.
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { videoTasks } from '../../server/db/schema.ts';
import { bearer, createTestApp, signInAdmin, signInLocal, type TestApp } from '../helpers/app.ts';
import type { DatabaseKind } from '../helpers/database.ts';
import { grantCredits } from '../helpers/video.ts';

export interface Person {
  token: string;
  user: { id: string; email: string };
}

export interface DataApiWorld {
  t: TestApp;
  ann: Person;
  bob: Person;
  editor: Person;
  admin: Person;
  tasks: { ann: string[]; bob: string[] };
  posts: { draft: { id: string; slug: string }; published: { id: string; slug: string } };
}

export const EDITOR_EMAIL = 'eddie@example.com';

/** A task row as the worker leaves it; tests only read these. */
async function seedTask(
  t: TestApp,
  userId: string,
  fields: { prompt: string; status: 'pending' | 'completed' | 'failed'; progress: number },
) {
  const id = randomUUID();
  await t.database.db.insert(videoTasks).values({
    id,
    userId,
    model: 'veo3',
    mode: 'text',
    provider: 'local',
    deadlineAt: new Date(Date.now() + 3_600_000),
    creditsCharged: 17,
    ...fields,
  });
  return id;
}

export async function createDataApiWorld(kind: DatabaseKind): Promise<DataApiWorld> {
  const t = await createTestApp(kind, { env: { BLOG_EDITORS: EDITOR_EMAIL } });
  const ann = await signInLocal(t.app, 'ann@example.com', 'Ann');
  const bob = await signInLocal(t.app, 'bob@example.com', 'Bob');
  const editor = await signInLocal(t.app, EDITOR_EMAIL, 'Eddie Editor');
  // The real admin sign-in: its session belongs to the operator's own (hidden) users row.
  const adminToken = await signInAdmin(t.app);
  const adminUser = await t.app.inject({ url: '/api/auth/user', headers: bearer(adminToken) });
  if (adminUser.statusCode !== 200) throw new Error(`admin user lookup failed: ${adminUser.body}`);
  const admin: Person = { token: adminToken, user: adminUser.json().data.user };

  await grantCredits(t, ann.user.id, 100);
  await grantCredits(t, ann.user.id, 50);
  await grantCredits(t, bob.user.id, 30);
  const tasks = {
    ann: [
      await seedTask(t, ann.user.id, {
        prompt: 'A lighthouse at dawn',
        status: 'completed',
        progress: 100,
      }),
      await seedTask(t, ann.user.id, {
        prompt: 'Waves over a harbour wall',
        status: 'pending',
        progress: 0,
      }),
      await seedTask(t, ann.user.id, {
        prompt: 'A fox crossing snow',
        status: 'failed',
        progress: 40,
      }),
    ],
    bob: [
      await seedTask(t, bob.user.id, {
        prompt: "Bob's secret storyboard",
        status: 'completed',
        progress: 100,
      }),
    ],
  };

  const createPost = async (title: string, status: 'draft' | 'published') => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/blog/admin/posts',
      headers: bearer(editor.token),
      payload: { title, content: `<p>${title}: the full story.</p>`, status },
    });
    if (res.statusCode !== 200) throw new Error(`post seed failed: ${res.body}`);
    return res.json().data as { id: string; slug: string };
  };
  const posts = {
    draft: await createPost('Unreleased camera tricks', 'draft'),
    published: await createPost('Lighting a night scene', 'published'),
  };
  return { t, ann, bob, editor, admin, tasks, posts };
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Calls the data API as `token` (null: anonymous). GET takes query parameters, others a body. */
export function dataApi(
  t: TestApp,
  token: string | null,
  method: Method,
  path: string,
  input?: Record<string, unknown>,
): Promise<LightMyRequestResponse> {
  const headers = token ? bearer(token) : {};
  if (method === 'GET') {
    const query = Object.fromEntries(
      Object.entries(input ?? {}).map(([k, v]) => [
        k,
        typeof v === 'string' ? v : JSON.stringify(v),
      ]),
    );
    return t.app.inject({ method, url: path, headers, query });
  }
  return t.app.inject({ method, url: path, headers, ...(input ? { payload: input } : {}) });
}
