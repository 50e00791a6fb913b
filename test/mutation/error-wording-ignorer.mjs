// A StrykerJS ignorer: leaves error-message wording unmutated. The tests pin an error's status,
// code and field (what a client branches on); the human-readable message is documentation, and a
// test per sentence would pin prose, not behaviour. Ignored: the message argument of the error
// helpers of src/core/errors.ts (and of events.ts's `problem(text)`, a metadata value's), the `message` of an error item literal, a `message` parameter's
// default, the arguments of `new Error(...)` (internal invariants, never answered), the problem of
// a `new FixtureError(path, problem)` (and of a `{ path, problem }` literal that becomes one) and of base.ts's reference checks (`check(ok, path, problem)`,
// `refs(list, known, path, what)`: `what` only names the kind of record in the message), and what a
// limit's refusal names (`checkRoom(app, kind, count, what)`), and the message of a search query's
// problem (`bad(field, message)`, resources/customers/search.ts). The path,
// which the answer's `field` carries, stays mutated.
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

const MESSAGE_ARGUMENT = { apiError: 1, invalid: 1, missing: 1, notFound: 0, check: 2, refs: 3, problem: 0, checkRoom: 3, bad: 1 };
const NEW_MESSAGE_ARGUMENT = { FixtureError: 1 };
const REASON = 'error-message wording (see README, Reliability)';

const calleeName = (callee) => (callee.type === 'Identifier' ? callee.name : undefined);
const keyName = (key) => (key.type === 'Identifier' ? key.name : key.type === 'StringLiteral' ? key.value : undefined);

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'error-wording', {
    shouldIgnore(path) {
      const parent = path.parentPath;
      if (!parent) return undefined;
      if (path.listKey === 'arguments') {
        const name = calleeName(parent.node.callee);
        if (parent.isNewExpression() && name === 'Error') return REASON;
        if (parent.isNewExpression() && name !== undefined && NEW_MESSAGE_ARGUMENT[name] === path.key) return REASON;
        if (parent.isCallExpression() && name !== undefined && MESSAGE_ARGUMENT[name] === path.key) return REASON;
      }
      if (parent.isObjectProperty() && path.key === 'value' && keyName(parent.node.key) === 'message') {
        const siblings = parent.parentPath.node.properties ?? [];
        if (siblings.some((p) => p.type === 'ObjectProperty' && keyName(p.key) === 'code')) return REASON;
      }
      // A `{ path, problem }` literal (events.ts's seed checks) becomes a FixtureError(path, problem).
      if (parent.isObjectProperty() && path.key === 'value' && keyName(parent.node.key) === 'problem') {
        const siblings = parent.parentPath.node.properties ?? [];
        if (siblings.some((p) => p.type === 'ObjectProperty' && keyName(p.key) === 'path')) return REASON;
      }
      if (parent.isAssignmentPattern() && path.key === 'right' && parent.node.left.type === 'Identifier' && parent.node.left.name === 'message') return REASON;
      return undefined;
    },
  }),
];
