import ts from 'typescript';
import { fileURLToPath } from 'node:url';
import { ERROR_STATUS, type ErrorCode } from '../../src/error-codes.js';
import { ORDER_TRANSITIONS, type OrderTransitionHooks, type TransitionName } from '../../src/services/orders/order-lifecycle.js';
import { ORDER_TRANSITION_HOOKS } from '../../src/services/wiring.js';

/**
 * The error codes each piece of the server's code can answer with, read from the source by the
 * TypeScript compiler: every code written in code reachable from it (a `refused('COUPON_NOT_FOUND',
 * ...)`, a `case 'CART_CHANGED':`, a code in the SQL text of a statement), following every function,
 * method and constant it names, and for a call through an interface (`writer.placeOrders(...)`) every
 * implementation of that method; and for an order move (`transitionOrders(tx, ['cancel'], ...)`) the
 * preparers and subscribers the service wiring attaches to the moves named. An over-approximation by design: a code is listed when some path
 * may reach it. `src/errors.ts` is read as what its helpers mean (`notFound()` is NOT_FOUND), and the
 * refusal lists themselves (`...Refusals`) are not followed, so a list never vouches for itself.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = `${ROOT}src/`;
const CODES = new Set<string>(Object.keys(ERROR_STATUS));
const HELPERS: Record<string, ErrorCode> = { notFound: 'NOT_FOUND', forbidden: 'FORBIDDEN', unauthenticated: 'UNAUTHENTICATED', validationError: 'VALIDATION_FAILED' };

export interface CodeReader {
  program: ts.Program;
  /** The codes reachable from a node (a handler, a function), with for each one the first path that reaches it. */
  codesOf(node: ts.Node): Map<ErrorCode, string[]>;
  /** Every `src/` source file. */
  sourceFiles(): ts.SourceFile[];
}

const ours = (file: string) => file.startsWith(SRC) && !file.endsWith('/src/error-codes.ts');
const where = (node: ts.Node) => {
  const file = node.getSourceFile();
  return `${file.fileName.slice(ROOT.length)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
};

export function codeReader(): CodeReader {
  const config = ts.getParsedCommandLineOfConfigFile(`${ROOT}tsconfig.build.json`, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
  const program = ts.createProgram(config.fileNames, config.options);
  const checker = program.getTypeChecker();
  const sourceFiles = () => program.getSourceFiles().filter((file) => ours(file.fileName));

  // Implementations of interface methods: `OrderWriter.placeOrders` → each object literal or class member.
  const implementations = new Map<string, ts.Node[]>();
  const implement = (key: string, node: ts.Node) => implementations.set(key, [...(implementations.get(key) ?? []), node]);
  for (const file of sourceFiles()) {
    const visit = (node: ts.Node): void => {
      if (ts.isObjectLiteralExpression(node)) {
        const symbol = checker.getContextualType(node)?.getSymbol();
        if (symbol?.declarations?.some((d) => ts.isInterfaceDeclaration(d) && ours(d.getSourceFile().fileName))) {
          for (const property of node.properties) if (property.name) implement(`${symbol.name}.${property.name.getText()}`, property);
        }
      }
      if (ts.isClassDeclaration(node)) {
        for (const type of node.heritageClauses?.flatMap((clause) => [...clause.types]) ?? []) {
          for (const member of node.members) if (member.name) implement(`${type.expression.getText()}.${member.name.getText()}`, member);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }

  /** What following a declaration means: its body, or for an interface method its implementations. */
  function targets(declaration: ts.Declaration): ts.Node[] {
    const parent = declaration.parent as ts.Node | undefined; // a module has none
    if (!parent) return [];
    if (ts.isInterfaceDeclaration(parent) && (ts.isMethodSignature(declaration) || ts.isPropertySignature(declaration))) {
      const callable = ts.isMethodSignature(declaration) || (declaration.type !== undefined && ts.isFunctionTypeNode(declaration.type));
      return callable ? (implementations.get(`${parent.name.text}.${declaration.name.getText()}`) ?? []) : [];
    }
    // An object of methods or a class named as a whole: only its members called through it count (above).
    if (ts.isClassDeclaration(declaration)) return declaration.members.filter(ts.isConstructorDeclaration);
    if (ts.isVariableDeclaration(declaration) && declaration.initializer && ts.isObjectLiteralExpression(declaration.initializer) && declaration.type) return [];
    const followed = ts.isFunctionDeclaration(declaration) || ts.isMethodDeclaration(declaration) || ts.isVariableDeclaration(declaration)
      || ts.isPropertyAssignment(declaration) || ts.isPropertyDeclaration(declaration) || ts.isShorthandPropertyAssignment(declaration);
    return followed ? [declaration] : [];
  }

  // Functions of ours by name: the wiring's hooks are known at run time by their functions' names.
  const functionsByName = new Map<string, ts.Node>();
  for (const file of sourceFiles()) {
    for (const statement of file.statements) {
      if (ts.isFunctionDeclaration(statement) && statement.name) functionsByName.set(statement.name.text, statement);
      if (ts.isVariableStatement(statement)) for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name) && d.initializer) functionsByName.set(d.name.text, d);
    }
  }
  const MOVERS = new Set(['transitionOrders', 'transitionOrder', 'prepareTransition']);
  const hooks: OrderTransitionHooks = ORDER_TRANSITION_HOOKS;

  /** The moves a call of a mover names, when they are written as a literal list (or a constant holding one). */
  function movesNamed(argument: ts.Expression | undefined): TransitionName[] {
    let list = argument;
    if (list && ts.isIdentifier(list)) {
      const declaration = checker.getSymbolAtLocation(list)?.declarations?.[0];
      list = declaration && ts.isVariableDeclaration(declaration) ? declaration.initializer : undefined;
    }
    while (list && (ts.isAsExpression(list) || ts.isSatisfiesExpression(list))) list = list.expression;
    if (!list || !ts.isArrayLiteralExpression(list)) return [];
    return list.elements.filter(ts.isStringLiteral).map((e) => e.text).filter((name): name is TransitionName => name in ORDER_TRANSITIONS);
  }

  /** The wiring's preparers and subscribers of these moves (a subscriber acts on the state a move reaches). */
  function hooksOf(names: TransitionName[]): ts.Node[] {
    const fns = names.flatMap((name) => [...(hooks.prepare?.[name] ?? []), ...(hooks.on?.[`order.${ORDER_TRANSITIONS[name].to}`] ?? [])]);
    return fns.map((fn) => {
      const declaration = functionsByName.get(fn.name);
      if (!declaration) throw new Error(`the wiring attaches ${fn.name}, which is no function of src/`);
      return declaration;
    });
  }

  const memo = new Map<ts.Node, Map<ErrorCode, string[]>>();

  function codesOf(root: ts.Node): Map<ErrorCode, string[]> {
    const known = memo.get(root);
    if (known) return known;
    const found = new Map<ErrorCode, string[]>();
    memo.set(root, found); // a cycle stops here; its codes arrive through the first visit
    const add = (code: ErrorCode, path: string[]) => {
      if (!found.has(code)) found.set(code, path);
    };
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
        for (const [word] of node.text.matchAll(/\b[A-Z][A-Z_]{2,}\b/g)) if (CODES.has(word)) add(word as ErrorCode, [where(node)]);
      }
      if (ts.isCallExpression(node) && MOVERS.has(node.expression.getText())) {
        for (const hook of hooksOf(movesNamed(node.arguments[1]))) {
          for (const [code, path] of codesOf(hook)) add(code, [`${(hook as ts.FunctionDeclaration | ts.VariableDeclaration).name!.getText()} on ${node.expression.getText()} (${where(node)})`, ...path]);
        }
      }
      if (ts.isIdentifier(node) && !node.text.endsWith('Refusals')) {
        let symbol = ts.isShorthandPropertyAssignment(node.parent) ? checker.getShorthandAssignmentValueSymbol(node.parent) : checker.getSymbolAtLocation(node);
        if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
        for (const declaration of symbol?.declarations ?? []) {
          const file = declaration.getSourceFile().fileName;
          if (file.endsWith('/src/errors.ts')) {
            const code = HELPERS[symbol!.name];
            if (code) add(code, [where(node)]);
            continue;
          }
          if (!ours(file) || declaration === root) continue;
          for (const target of targets(declaration)) {
            for (const [code, path] of codesOf(target)) add(code, [`${symbol!.name} (${where(node)})`, ...path]);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    ts.forEachChild(root, visit);
    return found;
  }

  return { program, codesOf, sourceFiles };
}

/** A `route(router, '/path', { get: { doc, handle }, ... })` call of a routes file: its handlers by method. */
export interface RouteHandlers {
  path: string;
  handlers: { method: string; handle: ts.Node }[];
}

/**
 * Every path a route's path argument can be: a literal, or a template whose parts are each typed as
 * string literals (`${prefix}/webhooks` with `prefix: '/admin' | '/merchant'` gives both paths, one
 * route call registering the same handlers under each). Null when a part is not known to the types.
 */
function pathsOf(checker: ts.TypeChecker, path: ts.Expression): string[] | null {
  if (ts.isStringLiteral(path) || ts.isNoSubstitutionTemplateLiteral(path)) return [path.text];
  if (!ts.isTemplateExpression(path)) return null;
  let paths = [path.head.text];
  for (const span of path.templateSpans) {
    const type = checker.getTypeAtLocation(span.expression);
    const parts = (type.isUnion() ? type.types : [type]).map((part) => (part.isStringLiteral() ? part.value : null));
    if (parts.some((part) => part === null)) return null;
    paths = paths.flatMap((before) => parts.map((part) => `${before}${part}${span.literal.text}`));
  }
  return paths;
}

export function routeHandlers(reader: CodeReader): RouteHandlers[] {
  const checker = reader.program.getTypeChecker();
  const routes: RouteHandlers[] = [];
  for (const file of reader.sourceFiles().filter((f) => f.fileName.endsWith('.routes.ts'))) {
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && node.expression.getText() === 'route' && node.arguments.length === 3) {
        const [, path, methods] = node.arguments;
        const paths = pathsOf(checker, path);
        if (!paths || !ts.isObjectLiteralExpression(methods)) throw new Error(`${where(node)}: route() takes a path of literal types and an object`);
        const handlers = methods.properties.filter(ts.isPropertyAssignment).map((method) => {
          const operation = method.initializer;
          const handle = ts.isObjectLiteralExpression(operation) ? operation.properties.find((p) => p.name?.getText() === 'handle') : undefined;
          if (!handle) throw new Error(`${where(method)}: no handle`);
          return { method: method.name.getText(), handle };
        });
        for (const one of paths) routes.push({ path: one, handlers });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return routes;
}

/** Every `export const <useCase>Refusals = ...` with the declaration of `<useCase>` in the same file. */
export function refusalLists(reader: CodeReader): { name: string; useCase: ts.Node | undefined; file: string }[] {
  const lists: { name: string; useCase: ts.Node | undefined; file: string }[] = [];
  for (const file of reader.sourceFiles()) {
    const declared = new Map<string, ts.Node>();
    for (const statement of file.statements) {
      if (ts.isFunctionDeclaration(statement) && statement.name) declared.set(statement.name.text, statement);
      if (ts.isVariableStatement(statement)) for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) declared.set(d.name.text, d);
    }
    for (const name of declared.keys()) {
      if (name.endsWith('Refusals')) lists.push({ name, useCase: declared.get(name.slice(0, -'Refusals'.length)), file: file.fileName.slice(ROOT.length) });
    }
  }
  return lists;
}
