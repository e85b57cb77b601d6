// Audits a running server against the GraphQL-over-HTTP spec with graphql-http's
// `serverAudits` (https://github.com/graphql/graphql-http): `node audit.mjs URL` prints one
// JSON line per audit ({name, status, reason}) and a summary line; exits 1 unless every
// audit is ok.
import { serverAudits } from 'graphql-http';

const url = process.argv[2];
if (!url) {
  console.error('usage: node audit.mjs http://127.0.0.1:PORT/graphql');
  process.exit(2);
}
const results = await Promise.all(
  serverAudits({ url, fetchFn: fetch }).map(async (audit) => {
    const r = await audit.fn();
    return { id: audit.id, name: audit.name, status: r.status, reason: r.reason ?? null };
  }),
);
const counts = {};
for (const r of results) {
  counts[r.status] = (counts[r.status] ?? 0) + 1;
  if (r.status !== 'ok') console.log(JSON.stringify(r));
}
console.log(JSON.stringify({ audits: results.length, ...counts }));
process.exit(results.every((r) => r.status === 'ok') ? 0 : 1);
