/**
 * A StrykerJS ignore plugin for `npm run mutation:engine`: the text of the
 * reference server's errors is not mutated. §7 of the spec shows no error
 * shape, code or message, so any code, message or list of details is as
 * conformant as another, and the suite rightly judges none of them (only the
 * status, and that one store answers every error in one shape family). A
 * mutant of that text could only survive; running it would cost a whole suite
 * run to learn nothing. What is ignored, precisely:
 *   - the code, message and details of `new ApiError(status, code, message, details)`
 *     (never the status);
 *   - what is pushed to a list of validation errors (`errors.push(…)`,
 *     `errs.push(…)`): the text, never whether something is pushed.
 * Stryker reports these mutants as Ignored with this reason. Plain JavaScript:
 * Stryker loads plugins without tsx.
 */
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

const ERROR_LISTS = new Set(['errors', 'errs']);

/** @param {import('@babel/core').NodePath} path */
function isErrorText(path) {
  const parent = path.parentPath;
  if (!parent || path.listKey !== 'arguments') return false;
  const callee = parent.node.callee;
  if (parent.isNewExpression() && callee?.type === 'Identifier' && callee.name === 'ApiError') return Number(path.key) >= 1;
  return parent.isCallExpression()
    && callee?.type === 'MemberExpression'
    && callee.object.type === 'Identifier' && ERROR_LISTS.has(callee.object.name)
    && callee.property.type === 'Identifier' && callee.property.name === 'push';
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'error-text', {
    shouldIgnore(path) {
      return isErrorText(path) ? 'error text (code, message, details): §7 shows none, so any text is conformant' : undefined;
    },
  }),
];
