import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Comments that name a function, a variable or a type (a camelCase or PascalCase name in backticks)
 * name one that exists in the code: a rename or a removal that leaves a comment pointing at nothing
 * fails here (issue 46, "docs true again"). Names of other projects' APIs and made-up examples are
 * listed below with why.
 */
const ROOTS = ['src', 'migrations', 'bench', 'web/src', 'test/support', 'scripts'];

/** Named in comments, not declared here: other projects' APIs, and examples of a rule. */
const NOT_OURS = new Map([
  ['ControlledTransaction', "kysely's transaction type"],
  ['expressMiddleware', "Apollo Server's Express integration"],
  ['onTransitionStart', "Vendure's order state machine hook"],
  ['onTransitionEnd', "Vendure's order state machine hook"],
  ['beforeAll', "vitest's hook"],
  ['afterAll', "vitest's hook"],
  ['fooBar', 'an example of a camelCase field name'],
  ['postOrdersByOrderIdPay', 'an example of an operation id the document generates'],
  ['OrderPlacedEvent', 'an example of an event envelope name the document generates (`<Type>Event`)'],
]);

const CAMEL_OR_PASCAL = /^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$|^[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*$/;

function sources(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) {
        // Generated GraphQL documents of the web app: nobody writes their comments.
        if (name !== 'gql' && name !== 'node_modules') walk(file);
      } else if (/\.tsx?$/.test(name)) files.push(file);
    }
  };
  for (const root of ROOTS) walk(root);
  return files;
}

it('every function, variable or type a comment names in backticks exists in the code', () => {
  const declared = new Set<string>();
  const named: { file: string; name: string }[] = [];
  for (const file of sources()) {
    const comments: string[] = [];
    // Comments out, code in: a name that appears only in comments is not in the code.
    const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (comment) => {
      comments.push(comment);
      return ' ';
    });
    for (const word of code.match(/[A-Za-z_$][\w$]*/g) ?? []) declared.add(word);
    for (const comment of comments) for (const m of comment.matchAll(/`([A-Za-z_$][\w$]*)(?:\(\))?`/g)) named.push({ file, name: m[1] });
  }
  expect(named.length).toBeGreaterThan(500);
  const dangling = named.filter(({ name }) => CAMEL_OR_PASCAL.test(name) && !declared.has(name) && !NOT_OURS.has(name)).map(({ file, name }) => `${file}: ${name}`);
  expect(dangling).toEqual([]);
  // The list of others' names stays true too: each is still named somewhere.
  expect([...NOT_OURS.keys()].filter((name) => !named.some((n) => n.name === name))).toEqual([]);
});
