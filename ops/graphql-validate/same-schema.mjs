// Checks that a running server's schema, as introspection shows it, is the schema a file
// holds, with graphql-js (the reference implementation): both are built, sorted and printed,
// and the two prints must be equal — types, fields, arguments, descriptions, deprecations,
// default values, and each scalar's `@specifiedBy` URL.
// Usage: node same-schema.mjs SCHEMA.graphql http://127.0.0.1:PORT/graphql
// Prints the first lines that differ and exits 1 when they do.
import { readFileSync } from "node:fs";
import {
  buildClientSchema,
  buildSchema,
  getIntrospectionQuery,
  lexicographicSortSchema,
  printSchema,
} from "graphql";

const [schemaPath, url] = process.argv.slice(2);
if (!schemaPath || !url) {
  console.error("usage: node same-schema.mjs SCHEMA.graphql http://127.0.0.1:PORT/graphql");
  process.exit(2);
}
const query = getIntrospectionQuery({
  descriptions: true,
  specifiedByUrl: true,
  directiveIsRepeatable: true,
  schemaDescription: true,
  inputValueDeprecation: true,
});
const res = await fetch(url, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ query }),
});
const answer = await res.json();
if (answer.errors) {
  console.error(`introspection failed: ${JSON.stringify(answer.errors)}`);
  process.exit(1);
}
const print = (schema) => printSchema(lexicographicSortSchema(schema));
const live = print(buildClientSchema(answer.data));
const file = print(buildSchema(readFileSync(schemaPath, "utf8")));
if (live === file) {
  const scalars = Object.values(buildClientSchema(answer.data).getTypeMap())
    .filter((t) => t.specifiedByURL)
    .map((t) => `${t.name} @specifiedBy(${t.specifiedByURL})`);
  console.log(`same schema (${live.length} characters printed); ${scalars.join(", ")}`);
  process.exit(0);
}
const a = live.split("\n");
const b = file.split("\n");
let shown = 0;
for (let i = 0; i < Math.max(a.length, b.length) && shown < 10; i++) {
  if (a[i] !== b[i]) {
    console.error(`line ${i + 1}:\n  live: ${a[i] ?? "(end)"}\n  file: ${b[i] ?? "(end)"}`);
    shown++;
  }
}
process.exit(1);
