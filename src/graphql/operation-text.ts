import { Kind, visit, type DocumentNode, type GraphQLError, type ValueNode } from 'graphql';
import { unsafeTextProblems, UNSAFE_TEXT_MESSAGE, type InputProblem } from '../shared/unsafe-text.js';
import { validationFailed } from '../shared/validate.js';
import { asGraphQLError } from './errors.js';

/** Inline string literals under one argument value, by dotted path from the argument's name. */
function literalProblems(node: ValueNode, path: string, problems: InputProblem[]): void {
  switch (node.kind) {
    case Kind.STRING:
      if (unsafeTextProblems(node.value).length > 0) problems.push({ field: path, message: UNSAFE_TEXT_MESSAGE });
      return;
    case Kind.LIST:
      node.values.forEach((value, index) => literalProblems(value, `${path}.${index}`, problems));
      return;
    case Kind.OBJECT:
      for (const field of node.fields) literalProblems(field.value, `${path}.${field.name.value}`, problems);
      return;
    default:
  }
}

/**
 * The one text check of the GraphQL door (HTTP and websocket): NUL or a lone surrogate in a variable
 * (named by its path, `input.displayName`) or in an inline argument (named from the argument) makes
 * the operation VALIDATION_FAILED before it runs. Null when the operation is clean.
 */
export function unsafeOperationText(document: DocumentNode, variables: Record<string, unknown> | undefined): GraphQLError | null {
  const problems = unsafeTextProblems(variables ?? {});
  problems.push(...inlineProblems(document));
  return problems.length === 0 ? null : asGraphQLError(validationFailed(problems));
}

/**
 * The inline arguments' problems of each document, walked once: Apollo hands the same parsed
 * document to every request that sends the same text (its document store), so a document clients
 * repeat is not walked at each request. Weak: a document Apollo drops goes with its entry.
 */
const inlineProblemsOf = new WeakMap<DocumentNode, readonly InputProblem[]>();

function inlineProblems(document: DocumentNode): readonly InputProblem[] {
  let problems = inlineProblemsOf.get(document);
  if (!problems) {
    const found: InputProblem[] = [];
    visit(document, {
      Argument(node) {
        literalProblems(node.value, node.name.value, found);
        return false;
      },
    });
    inlineProblemsOf.set(document, (problems = found));
  }
  return problems;
}
