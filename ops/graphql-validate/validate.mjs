// Validates every operation in the given files against the schema, with graphql-js (the
// reference implementation). Usage: node validate.mjs SCHEMA.graphql OP.graphql...
import { readFileSync } from "node:fs";
import { buildSchema, parse, validate } from "graphql";

const [schemaPath, ...ops] = process.argv.slice(2);
const schema = buildSchema(readFileSync(schemaPath, "utf8"));
let failed = 0;
for (const path of ops) {
  let errors;
  try {
    errors = validate(schema, parse(readFileSync(path, "utf8")));
  } catch (e) {
    errors = [e];
  }
  for (const e of errors) {
    console.error(`${path}: ${e.message}`);
  }
  failed += errors.length ? 1 : 0;
  if (!errors.length) console.log(`${path}: valid`);
}
process.exit(failed ? 1 : 0);
