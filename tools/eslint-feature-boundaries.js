// @ts-check
/**
 * Lint rule `geosentry/feature-boundaries`: code in web/src/features/<X> or web/src/app may use another feature only
 * through that feature's index.ts (its public surface: routes, components, hooks). Importing any other file of
 * web/src/features/<Y> -- statically, as a re-export or by a dynamic import() -- is an error. Shared code lives in
 * web/src/shared. Feature route tables are collected by web/src/app/routes.tsx with import.meta.glob, which this
 * rule does not see.
 */
import path from 'node:path';

const FEATURES = `${path.sep}web${path.sep}src${path.sep}features${path.sep}`;
const APP = `${path.sep}web${path.sep}src${path.sep}app${path.sep}`;

/** The feature a file belongs to ('' for web/src/app, null when the rule does not apply). */
function featureOf(file) {
  const i = file.indexOf(FEATURES);
  if (i >= 0) return file.slice(i + FEATURES.length).split(path.sep)[0] ?? null;
  return file.includes(APP) ? '' : null;
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    messages: {
      deep: "Import another feature only through its index.ts: '{{spec}}' reaches into feature '{{feature}}'. Export it from web/src/features/{{feature}}/index.ts (or move it to web/src/shared).",
    },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const own = featureOf(file);
    if (own === null) return {};
    /** @param {import('estree').Node | null | undefined} source */
    const check = (source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const spec = source.value;
      if (!spec.startsWith('.')) return;
      const target = path.resolve(path.dirname(file), spec);
      const at = target.indexOf(FEATURES);
      if (at < 0) return;
      const feature = target.slice(at + FEATURES.length).split(path.sep)[0];
      if (!feature || feature === own) return;
      const inside = target.slice(at + FEATURES.length + feature.length + 1);
      if (inside === 'index.ts' || inside === 'index') return;
      context.report({ node: source, messageId: 'deep', data: { spec, feature } });
    };
    return {
      ImportDeclaration: (n) => check(n.source),
      ExportNamedDeclaration: (n) => check(n.source),
      ExportAllDeclaration: (n) => check(n.source),
      ImportExpression: (n) => check(n.source),
    };
  },
};

export default { rules: { 'feature-boundaries': rule } };
