// @vitest-environment happy-dom
/**
 * Browser-side session, credits and HTTP client (spec 4 "Auth", "Credits"; 7 "Calls";
 * 8 "Transport"; 9 timeouts, retries, credit cache). Every test loads fresh store modules and
 * answers requests from a stubbed `fetch`; nothing reaches the network.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PublicUser } from '../../server/contracts/auth.ts';
import type * as AuthModule from '../../site/stores/auth.ts';
import type * as CreditsModule from '../../site/stores/credits.ts';
import type * as ApiModule from '../../site/lib/api/http.ts';

type FetchStub = (input: Request, init?: RequestInit) => Promise<Response>;

const ORIGIN = 'http://localhost:3000';
const TOKEN = 'token-ada';

let fetchMock: ReturnType<typeof vi.fn<FetchStub>>;
let consoleError: ReturnType<typeof vi.spyOn>;
const cleanups: Array<() => void> = [];

function makeUser(overrides: Partial<PublicUser> = {}): PublicUser {
  return {
    id: 'user-ada',
    email: 'ada@example.com',
    name: 'Ada',
    picture: null,
    avatar_url: null,
    credits: 40,
    provider: 'google',
    can_manage_blog: false,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function balanceResponse(total: number, user: PublicUser = makeUser()): Response {
  return jsonResponse({ success: true, data: { total_credits: total, transactions: [], user } });
}

function errorResponse(status: number, message = `failed with ${status}`): Response {
  return jsonResponse({ success: false, message, code: `E${status}` }, status);
}

/** What the browser's fetch throws when the server cannot be reached. */
function networkFailure(): Promise<Response> {
  return Promise.reject(new TypeError('Failed to fetch'));
}

/** A fetch that never answers, but stops when ky aborts it (as a real fetch does). */
function hangingFetch(input: Request): Promise<Response> {
  return new Promise((_resolve, reject) => {
    input.signal.addEventListener('abort', () => reject(input.signal.reason));
  });
}

function requestAt(index: number): Request {
  const call = fetchMock.mock.calls[index];
  if (!call) throw new Error(`fetch was called ${fetchMock.mock.calls.length} times`);
  return call[0];
}

/** Fresh copies of the client modules, so module state (cache, init flag) never leaks. */
async function loadClient(): Promise<{
  auth: typeof AuthModule;
  credits: typeof CreditsModule;
  api: typeof ApiModule;
}> {
  vi.resetModules();
  const auth = await import('../../site/stores/auth.ts');
  const credits = await import('../../site/stores/credits.ts');
  const api = await import('../../site/lib/api/http.ts');
  return { auth, credits, api };
}

function storeSession(token: string | null, user: string | null): void {
  if (token !== null) window.localStorage.setItem('authToken', token);
  if (user !== null) window.localStorage.setItem('user', user);
}

function storedKeys(): { authToken: string | null; user: string | null } {
  return {
    authToken: window.localStorage.getItem('authToken'),
    user: window.localStorage.getItem('user'),
  };
}

/** Load the client with a signed-in session already in storage. */
async function loadSignedIn(user: PublicUser = makeUser()) {
  storeSession(TOKEN, JSON.stringify(user));
  const client = await loadClient();
  client.auth.initAuth();
  return client;
}

/** Another tab changed localStorage: the browser fires `storage` in this one. */
function otherTabChanged(key: string | null, storageArea: Storage = window.localStorage): void {
  window.dispatchEvent(new StorageEvent('storage', { key, storageArea }));
}

function stubNavigation() {
  const assign = vi.fn<(url: string | URL) => void>();
  vi.spyOn(window.location, 'assign').mockImplementation(assign);
  return assign;
}

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
  fetchMock = vi.fn<FetchStub>(() => Promise.reject(new Error('unexpected request')));
  vi.stubGlobal('fetch', fetchMock);
  // The client logs every transport failure (spec 8); keep the output quiet but observable.
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
  // Fresh module copies each add their own `storage` listeners; drop them after the test so an
  // earlier test's stores never react to (or send requests for) a later test's events.
  const addListener = vi.spyOn(window, 'addEventListener');
  cleanups.push(() => {
    for (const [type, listener, options] of addListener.mock.calls) {
      window.removeEventListener(type, listener, options);
    }
  });
});

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('auth store', () => {
  const validUser = JSON.stringify(makeUser());

  it('restores the session when both user and authToken are stored', async () => {
    storeSession(TOKEN, validUser);
    const { auth } = await loadClient();

    auth.initAuth();

    expect(auth.$authToken.get()).toBe(TOKEN);
    expect(auth.$user.get()).toEqual(makeUser());
    expect(storedKeys()).toEqual({ authToken: TOKEN, user: validUser });
  });

  it.each([
    ['a token without a user', TOKEN, null],
    ['a user without a token', null, validUser],
    ['a user with an empty token', '', validUser],
    ['a token with a user that is not valid JSON', TOKEN, '{"id": "user-ada",'],
    ['a stored user that is not valid JSON', null, 'not json'],
    ['a token with a user that has no id', TOKEN, JSON.stringify({ name: 'Ada' })],
    ['a token with a user that is JSON null', TOKEN, 'null'],
  ])('starts signed out and removes both keys given %s', async (_case, token, user) => {
    storeSession(token, user);
    const { auth } = await loadClient();

    auth.initAuth();

    expect(auth.$user.get()).toBeNull();
    expect(auth.$authToken.get()).toBeNull();
    expect(storedKeys()).toEqual({ authToken: null, user: null });
  });

  it('removes a stored user that is not valid JSON and stays signed out', async () => {
    storeSession(null, '{broken');
    const { auth } = await loadClient();

    auth.initAuth();

    expect(window.localStorage.getItem('user')).toBeNull();
    expect(auth.$user.get()).toBeNull();
  });

  it('leaves unrelated localStorage entries alone when dropping a broken session', async () => {
    window.localStorage.setItem('theme', 'dark');
    storeSession(TOKEN, null);
    const { auth } = await loadClient();

    auth.initAuth();

    expect(window.localStorage.getItem('theme')).toBe('dark');
  });

  it('reports ready only after initAuth has read storage', async () => {
    const { auth } = await loadClient();
    // `.value` reads without starting the store (`.get()` would start it, as the next test shows).
    expect(auth.$authReady.value).toBe(false);

    auth.initAuth();

    expect(auth.$authReady.get()).toBe(true);
  });

  it('starts by itself when an island first reads the session, with the stored user', async () => {
    storeSession(TOKEN, validUser);
    const { auth } = await loadClient();
    expect(auth.$user.value).toBeNull();

    const seen: boolean[] = [];
    cleanups.push(auth.$authReady.subscribe((ready) => seen.push(ready)));

    expect(seen).toEqual([true]);
    expect(auth.$user.get()).toEqual(makeUser());
    expect(auth.$authToken.get()).toBe(TOKEN);
  });

  it.each([
    ['the authToken removal', 'authToken'],
    ['a storage clear (key null)', null],
  ])('signs out when another tab reports %s', async (_case, key) => {
    const { auth } = await loadSignedIn();
    expect(auth.$user.get()).not.toBeNull();

    window.localStorage.removeItem('authToken');
    otherTabChanged(key);

    expect(auth.$user.get()).toBeNull();
    expect(auth.$authToken.get()).toBeNull();
  });

  it('signs in when another tab stores a token and a user', async () => {
    const { auth } = await loadClient();
    auth.initAuth();
    expect(auth.$user.get()).toBeNull();

    const user = makeUser({ name: 'Ada from another tab' });
    storeSession(TOKEN, JSON.stringify(user));
    otherTabChanged('authToken');

    expect(auth.$authToken.get()).toBe(TOKEN);
    expect(auth.$user.get()).toEqual(user);
  });

  it('waits for the user entry when another tab has stored only the token so far', async () => {
    const { auth } = await loadClient();
    auth.initAuth();

    storeSession(TOKEN, null);
    otherTabChanged('authToken');
    expect(auth.$user.get()).toBeNull();

    storeSession(null, validUser);
    otherTabChanged('user');
    expect(auth.$user.get()).toEqual(makeUser());
    expect(auth.$authToken.get()).toBe(TOKEN);
  });

  it.each([
    ['an unrelated localStorage key', 'theme', () => window.localStorage],
    ['a sessionStorage change', 'authToken', () => window.sessionStorage],
  ])('ignores %s', async (_case, key, area) => {
    const { auth } = await loadSignedIn();

    window.localStorage.removeItem('authToken');
    otherTabChanged(key, area());

    expect(auth.$user.get()).toEqual(makeUser());
    expect(auth.$authToken.get()).toBe(TOKEN);
  });

  it('setSession stores the user and token and signs in', async () => {
    const { auth } = await loadClient();
    auth.initAuth();
    const user = makeUser();

    auth.setSession(TOKEN, user);

    expect(storedKeys()).toEqual({ authToken: TOKEN, user: JSON.stringify(user) });
    expect(auth.$user.get()).toEqual(user);
    expect(auth.$authToken.get()).toBe(TOKEN);
  });

  it('updateUser is ignored while signed out', async () => {
    const { auth } = await loadClient();
    auth.initAuth();

    auth.updateUser(makeUser());

    expect(auth.$user.get()).toBeNull();
    expect(window.localStorage.getItem('user')).toBeNull();
  });

  it('signOut revokes the session on the server, clears storage and goes to /', async () => {
    const assign = stubNavigation();
    const { auth } = await loadSignedIn();
    fetchMock.mockResolvedValueOnce(jsonResponse({ success: true }));

    await expect(auth.signOut()).resolves.toBe(true);

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const request = requestAt(0);
    expect(request.method).toBe('POST');
    expect(request.url).toBe(`${ORIGIN}/api/auth/signout`);
    expect(request.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(storedKeys()).toEqual({ authToken: null, user: null });
    expect(auth.$user.get()).toBeNull();
    expect(auth.$authToken.get()).toBeNull();
    expect(assign).toHaveBeenCalledWith('/');
  });

  it('signOut finishes locally when the server says the session is already gone (401)', async () => {
    const assign = stubNavigation();
    const { auth } = await loadSignedIn();
    fetchMock.mockResolvedValueOnce(errorResponse(401, 'Not signed in'));

    await expect(auth.signOut()).resolves.toBe(true);

    expect(storedKeys()).toEqual({ authToken: null, user: null });
    expect(auth.$user.get()).toBeNull();
    expect(assign).toHaveBeenCalledWith('/');
  });

  it.each([
    ['answers 500', () => Promise.resolve(errorResponse(500))],
    ['answers 403', () => Promise.resolve(errorResponse(403))],
    ['cannot be reached', networkFailure],
  ])('signOut keeps the session and returns false when the server %s', async (_case, answer) => {
    vi.useFakeTimers();
    const assign = stubNavigation();
    const { auth } = await loadSignedIn();
    fetchMock.mockImplementation(answer);

    const result = auth.signOut();
    await vi.advanceTimersByTimeAsync(5_000); // past any network retries
    await expect(result).resolves.toBe(false);

    expect(storedKeys()).toEqual({ authToken: TOKEN, user: JSON.stringify(makeUser()) });
    expect(auth.$user.get()).toEqual(makeUser());
    expect(auth.$authToken.get()).toBe(TOKEN);
    expect(assign).not.toHaveBeenCalled();
    expect(consoleError).toHaveBeenCalledWith('[auth] sign out failed', expect.anything());
  });
});

describe('credits store', () => {
  it('answers 0 without a request when nobody is signed in', async () => {
    const { auth, credits } = await loadClient();
    auth.initAuth();
    credits.$credits.set(99);

    await expect(credits.refreshCredits()).resolves.toBe(0);

    expect(credits.$credits.value).toBe(0);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('fetches the balance with the bearer token and shows data.total_credits', async () => {
    const { credits } = await loadSignedIn();
    fetchMock.mockResolvedValueOnce(balanceResponse(120));

    await expect(credits.refreshCredits()).resolves.toBe(120);

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const request = requestAt(0);
    expect(request.method).toBe('GET');
    expect(request.url).toBe(`${ORIGIN}/api/credits/balance`);
    expect(request.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(credits.$credits.value).toBe(120);
  });

  it.each([
    ['answers from the cache', 2_999, 1, 120],
    ['fetches again', 3_000, 2, 80],
  ])('%s when called again %i ms later', async (_case, elapsed, calls, expected) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-06-01T12:00:00.000Z'));
    const { credits } = await loadSignedIn();
    fetchMock
      .mockResolvedValueOnce(balanceResponse(120))
      .mockResolvedValueOnce(balanceResponse(80));
    await credits.refreshCredits();

    vi.setSystemTime(Date.now() + elapsed);
    await expect(credits.refreshCredits()).resolves.toBe(expected);

    expect(fetchMock).toHaveBeenCalledTimes(calls);
    expect(credits.$credits.value).toBe(expected);
  });

  it('bypasses the cache when forced', async () => {
    const { credits } = await loadSignedIn();
    fetchMock
      .mockResolvedValueOnce(balanceResponse(120))
      .mockResolvedValueOnce(balanceResponse(80));
    await credits.refreshCredits();

    await expect(credits.refreshCredits({ force: true })).resolves.toBe(80);

    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('shares one request between concurrent calls', async () => {
    const { credits } = await loadSignedIn();
    let answer: (response: Response) => void = () => {};
    fetchMock.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));

    const first = credits.refreshCredits();
    const second = credits.refreshCredits({ force: true });
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    answer(balanceResponse(120));

    await expect(Promise.all([first, second])).resolves.toEqual([120, 120]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['the server answers 500', () => Promise.resolve(errorResponse(500))],
    ['the server cannot be reached', networkFailure],
    ['the answer has no data', () => Promise.resolve(jsonResponse({ success: true }))],
  ])('shows 0 and keeps the session when %s', async (_case, answer) => {
    vi.useFakeTimers();
    const { auth, credits } = await loadSignedIn();
    credits.$credits.set(55);
    fetchMock.mockImplementation(answer);

    const result = credits.refreshCredits();
    await vi.advanceTimersByTimeAsync(5_000); // past any network retries
    await expect(result).resolves.toBe(0);

    expect(credits.$credits.value).toBe(0);
    expect(auth.$user.get()).toEqual(makeUser());
    expect(window.localStorage.getItem('authToken')).toBe(TOKEN);
  });

  it('signs the visitor out and shows 0 when the balance request answers 401', async () => {
    const { auth, credits } = await loadSignedIn();
    fetchMock.mockResolvedValueOnce(errorResponse(401, 'Session expired'));
    // Mounted like the header's credit badge: it follows the session and loads the balance.
    cleanups.push(credits.$credits.listen(() => {}));

    await expect(credits.refreshCredits()).resolves.toBe(0);

    expect(auth.$user.get()).toBeNull();
    expect(auth.$authToken.get()).toBeNull();
    expect(storedKeys()).toEqual({ authToken: null, user: null });
    expect(credits.$credits.value).toBe(0);
  });

  it('replaces the local user with the server copy when it differs', async () => {
    const { auth, credits } = await loadSignedIn(makeUser({ name: 'Ada' }));
    const serverUser = makeUser({ name: 'Ada Lovelace', credits: 120 });
    fetchMock.mockResolvedValueOnce(balanceResponse(120, serverUser));

    await credits.refreshCredits();

    expect(auth.$user.get()).toEqual(serverUser);
    expect(JSON.parse(window.localStorage.getItem('user') ?? 'null')).toEqual(serverUser);
  });

  it('keeps the local user object when the server copy is the same', async () => {
    const { auth, credits } = await loadSignedIn();
    const before = auth.$user.get();
    fetchMock.mockResolvedValueOnce(balanceResponse(120, makeUser()));

    await credits.refreshCredits();

    expect(auth.$user.get()).toBe(before);
  });

  it('does not adopt a server user with a different id', async () => {
    const { auth, credits } = await loadSignedIn();
    fetchMock.mockResolvedValueOnce(balanceResponse(120, makeUser({ id: 'someone-else' })));

    await credits.refreshCredits();

    expect(auth.$user.get()).toEqual(makeUser());
    expect(JSON.parse(window.localStorage.getItem('user') ?? 'null')).toEqual(makeUser());
  });

  it('does not re-apply a server user it has already seen, even if the local copy changed', async () => {
    const { auth, credits } = await loadSignedIn();
    const serverUser = makeUser({ name: 'Ada Lovelace' });
    fetchMock
      .mockResolvedValueOnce(balanceResponse(120, serverUser))
      .mockResolvedValueOnce(balanceResponse(120, serverUser));
    await credits.refreshCredits();
    const locallyChanged = makeUser({ name: 'Ada Lovelace', credits: 3 });
    auth.updateUser(locallyChanged);

    await credits.refreshCredits({ force: true });

    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(auth.$user.get()).toEqual(locallyChanged);
  });

  it('loads the balance when something shows credits and resets to 0 on sign-out', async () => {
    const { auth, credits } = await loadSignedIn(makeUser({ credits: 40 }));
    fetchMock.mockResolvedValueOnce(balanceResponse(120));
    const seen: number[] = [];
    cleanups.push(credits.$credits.subscribe((value) => seen.push(value)));

    expect(seen).toEqual([40]); // the stored count at once
    await vi.waitFor(() => expect(credits.$credits.get()).toBe(120));
    expect(fetchMock).toHaveBeenCalledTimes(1);

    auth.clearSession();

    expect(credits.$credits.get()).toBe(0);
  });

  it('refreshes when localStorage changes in another tab', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-06-01T12:00:00.000Z'));
    const { credits } = await loadSignedIn();
    fetchMock
      .mockResolvedValueOnce(balanceResponse(120))
      .mockResolvedValueOnce(balanceResponse(103));
    cleanups.push(credits.$credits.listen(() => {}));
    await vi.waitFor(() => expect(credits.$credits.get()).toBe(120));

    vi.setSystemTime(Date.now() + 3_000);
    otherTabChanged('user');

    await vi.waitFor(() => expect(credits.$credits.get()).toBe(103));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

describe('site API client: requests, timeouts and retries', () => {
  it('exports the 30 s request timeout from spec 9', async () => {
    const { api } = await loadClient();
    expect(api.REQUEST_TIMEOUT_MS).toBe(30_000);
  });

  it('sends JSON to the site origin with cookies and the bearer token', async () => {
    const { api } = await loadSignedIn();
    let sentBody = '';
    fetchMock.mockImplementationOnce(async (input) => {
      sentBody = await input.clone().text();
      return jsonResponse({ success: true, data: { ok: 1 } });
    });

    const body = await api.api.post('/api/things', { json: { name: 'clip', n: 2 } }).json();

    expect(body).toEqual({ success: true, data: { ok: 1 } });
    const request = requestAt(0);
    expect(request.url).toBe(`${ORIGIN}/api/things`);
    expect(request.method).toBe('POST');
    expect(request.headers.get('content-type')).toMatch(/^application\/json/);
    expect(request.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(request.credentials).toBe('include');
    expect(JSON.parse(sentBody)).toEqual({ name: 'clip', n: 2 });
  });

  it('sends no Authorization header when signed out', async () => {
    const { auth, api } = await loadClient();
    auth.initAuth();
    fetchMock.mockResolvedValueOnce(jsonResponse({ ok: true }));

    await api.api.get('/api/health').json();

    expect(requestAt(0).headers.has('authorization')).toBe(false);
  });

  it.each([['get'], ['post']] as const)(
    'retries a %s that hits a network error 3 times, 1 s apart, then fails',
    async (method) => {
      vi.useFakeTimers();
      const { api } = await loadClient();
      fetchMock.mockImplementation(networkFailure);

      const outcome = api.api[method]('/api/health').then(
        () => null,
        (error: unknown) => error,
      );
      await vi.advanceTimersByTimeAsync(0);
      expect(fetchMock).toHaveBeenCalledTimes(1);
      for (const calls of [2, 3, 4]) {
        await vi.advanceTimersByTimeAsync(999);
        expect(fetchMock).toHaveBeenCalledTimes(calls - 1);
        await vi.advanceTimersByTimeAsync(1);
        expect(fetchMock).toHaveBeenCalledTimes(calls);
      }
      await vi.advanceTimersByTimeAsync(5_000);

      const error = await outcome;
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).name).toBe('NetworkError');
      expect(fetchMock).toHaveBeenCalledTimes(4);
    },
  );

  it('succeeds when a retry after a network error gets an answer', async () => {
    vi.useFakeTimers();
    const { api } = await loadClient();
    fetchMock
      .mockImplementationOnce(networkFailure)
      .mockResolvedValueOnce(jsonResponse({ ok: true }));

    const result = api.api.get('/api/health').json();
    await vi.advanceTimersByTimeAsync(1_000);

    await expect(result).resolves.toEqual({ ok: true });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it.each([[400], [401], [500], [503]])('does not retry an HTTP %i answer', async (status) => {
    vi.useFakeTimers();
    const { api } = await loadClient();
    fetchMock.mockImplementation(() => Promise.resolve(errorResponse(status)));

    const outcome = api.api.get('/api/health').then(
      () => null,
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(10_000);

    const error = await outcome;
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(api.readApiError(error)).toEqual({
      status,
      message: `failed with ${status}`,
      code: `E${status}`,
    });
    expect(consoleError).toHaveBeenCalledWith(
      `[api] GET /api/health answered ${status}`,
      expect.objectContaining({ message: `failed with ${status}` }),
    );
  });

  it('times out each attempt after 30 s and retries timeouts 3 times before failing', async () => {
    vi.useFakeTimers();
    const { api } = await loadClient();
    fetchMock.mockImplementation(hangingFetch);

    const outcome = api.api.get('/api/health').then(
      () => null,
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    // Each attempt: 30 000 ms until the timeout, then the 1 000 ms retry delay.
    for (const calls of [2, 3, 4]) {
      await vi.advanceTimersByTimeAsync(30_999);
      expect(fetchMock).toHaveBeenCalledTimes(calls - 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(fetchMock).toHaveBeenCalledTimes(calls);
    }
    await vi.advanceTimersByTimeAsync(30_000);

    const error = await outcome;
    expect((error as Error).name).toBe('TimeoutError');
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expect(consoleError).toHaveBeenCalledWith(expect.stringContaining('timed out after 30 s'));
  });
});
