/**
 * The one HTTP client under the site's API modules (spec 7 "Calls", 8 "Transport"): same-origin
 * ky with the bearer token, timeouts and retries, and the API's error shape. Islands and stores
 * never call it directly: they use the feature modules beside it (auth, credits, video, …).
 */
import ky, { isHTTPError, isNetworkError, isTimeoutError } from 'ky';
import type { ErrorResponse } from '../../../shared/api/common.ts';
import { $authToken } from '../../stores/session.ts';

/** Spec 9: request timeout 30000 ms; retries 3 at 1000 ms. */
export const REQUEST_TIMEOUT_MS = 30_000;
const RETRY_LIMIT = 3;
const RETRY_DELAY_MS = 1000;

/**
 * Same-origin API client: JSON, cookies included, bearer token when signed in.
 * Only network errors and timeouts are retried (statusCodes is empty): an HTTP answer is final.
 * A caller whose request must not be repeated (a paid action) can pass `retry: 0`.
 */
export const api = ky.create({
  // Islands also render once at build time, where there is no window; URLs stay relative there.
  ...(typeof window === 'undefined' ? {} : { baseUrl: window.location.origin }),
  credentials: 'include',
  timeout: REQUEST_TIMEOUT_MS,
  retry: {
    limit: RETRY_LIMIT,
    delay: () => RETRY_DELAY_MS,
    statusCodes: [],
    retryOnTimeout: true,
    methods: ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'],
  },
  hooks: {
    beforeRequest: [
      ({ request }) => {
        const token = $authToken.get();
        if (token) request.headers.set('Authorization', `Bearer ${token}`);
        // API messages come back in the page's language (issue 21); codes never change.
        const lang = document.documentElement.lang;
        if (lang) request.headers.set('Accept-Language', lang);
      },
    ],
    beforeError: [
      ({ request, error }) => {
        // Spec 8: transport failures are logged only; each island decides what the user sees.
        const target = `${request.method} ${new URL(request.url).pathname}`;
        if (isHTTPError(error)) {
          console.error(`[api] ${target} answered ${error.response.status}`, error.data);
        } else if (isTimeoutError(error)) {
          console.error(
            `[api] ${target} timed out after ${REQUEST_TIMEOUT_MS / 1000} s and ${RETRY_LIMIT} retries. ` +
              'Check the network connection or whether the server is overloaded.',
          );
        } else if (isNetworkError(error)) {
          console.error(
            `[api] ${target} could not reach the server after ${RETRY_LIMIT} retries. ` +
              'Check the network connection, or whether the API server is running.',
            error,
          );
        }
        return error;
      },
    ],
  },
});

function isErrorResponse(data: unknown): data is ErrorResponse {
  return (
    typeof data === 'object' &&
    data !== null &&
    'message' in data &&
    typeof (data as { message: unknown }).message === 'string'
  );
}

/** The API's `{ success: false, message, code }` body of a failed request, if it has one. */
export function readApiError(
  error: unknown,
): (Pick<ErrorResponse, 'message' | 'code'> & { status: number }) | null {
  if (!isHTTPError(error) || !isErrorResponse(error.data)) return null;
  const { message, code } = error.data;
  return { message, code: typeof code === 'string' ? code : '', status: error.response.status };
}

/** The message a person can act on from a failed request, else `fallback`. */
export function apiErrorMessage(error: unknown, fallback: string): string {
  return readApiError(error)?.message || fallback;
}

/** The HTTP status of a failed request that got an answer; null for network errors and timeouts. */
export function httpStatus(error: unknown): number | null {
  return isHTTPError(error) ? error.response.status : null;
}
