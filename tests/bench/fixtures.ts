/**
 * What the bench's API rows and the profiler (profile-api.ts) set up on a running server: a user
 * who bought credits through the local checkout, and a developer's key with one video.
 */
import { localCheckoutForm } from '../helpers/local-checkout.ts';

export async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * The /v1 rows' fixture: a key of `token`'s user, one video it made, and the create request
 * that made it (the same body and Idempotency-Key: each send is answered from the stored answer).
 */
export async function developerVideo(base: string, token: string) {
  const created = await json<{ data: { key: string } }>(
    await fetch(`${base}/api/account/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'bench',
        scopes: ['videos:write', 'videos:read', 'credits:read'],
      }),
    }),
  );
  const headers = { authorization: `Bearer ${created.data.key}` };
  const replay = {
    headers: { 'content-type': 'application/json', 'idempotency-key': 'bench-replay' },
    body: JSON.stringify({ prompt: 'A lighthouse in a storm, seen from a boat' }),
  };
  const video = await json<{ id: string }>(
    await fetch(`${base}/v1/videos`, {
      method: 'POST',
      headers: { ...headers, ...replay.headers },
      body: replay.body,
    }),
  );
  return { id: video.id, headers, replay };
}

/** A signed-in user with a Standard pack (2,200 credits) bought through the local checkout. */
export async function richUser(base: string, email: string): Promise<string> {
  const { data } = await json<{ data: { token: string } }>(
    await fetch(`${base}/api/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench', email }),
    }),
  );
  const auth = { authorization: `Bearer ${data.token}`, 'content-type': 'application/json' };
  const session = await json<{ sessionId: string }>(
    await fetch(`${base}/api/stripe/create-payment-intent`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        type: 'credits',
        package_id: 'standard',
        success_url: '/pricing',
        cancel_url: '/pricing',
      }),
    }),
  );
  // Pay posts the checkout page's form, with its token.
  const page = await (await fetch(`${base}/checkout/local/${session.sessionId}`)).text();
  await fetch(`${base}/checkout/local/${session.sessionId}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: localCheckoutForm(page),
    redirect: 'manual',
  });
  return data.token;
}
