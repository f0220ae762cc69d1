/**
 * The throughput ceiling: a bare Fastify JSON hello-world on the same machine and Node.
 *
 * It also replays answers captured from the app (PUT /replay, then GET /replay/{i}): the same
 * status, headers and body from a server that does no work. An app row's ratio to its replay
 * separates what the app spends per request from what the answer's bytes cost on the wire and in
 * autocannon (a 70 KB page cannot reach the hello-world's rate, however it is served).
 */
import Fastify from 'fastify';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const app = Fastify({ logger: false, bodyLimit: 32 * 1024 * 1024 });
let answers: Answer[] = [];

app.get('/', async () => ({ hello: 'world' }));

app.put('/replay', async (request) => {
  const sent = request.body as Array<{
    status: number;
    headers: Record<string, string>;
    body: string;
  }>;
  answers = sent.map((a) => ({ ...a, body: Buffer.from(a.body, 'base64') }));
  return { loaded: answers.length };
});

app.get('/replay/:i', (request, reply) => {
  const answer = answers[Number((request.params as { i: string }).i)];
  if (!answer) return reply.status(404).send();
  return reply.status(answer.status).headers(answer.headers).send(answer.body);
});

await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
console.log(`listening ${(app.server.address() as { port: number }).port}`);
