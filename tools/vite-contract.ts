// The contract as the browser build sees it (web/vite.config.ts). The contract's modules hold, side by side, the
// constants and route tables the console uses and the zod schemas the server validates with. In the browser:
// - a route table keeps method and path, its schemas (`body`, `query`, `response`) become undefined: `call()` reads
//   only method and path at run time; the types still come from the schemas (type-checking sees the source);
// - every top-level constant built by a call (`z.object(...)`, `routeTable(...)`, `zPage(...)`) is wrapped in an
//   IIFE marked pure, and the modules are marked side-effect free: what no screen uses is left out of the bundle.
// So a screen downloads the schemas it validates a form with and nothing else of zod; the login page none (zod
// and the contract were about 46 KiB of every screen's first load).
import { parseSync, type Plugin } from 'vite';

/** The schema fields of a route definition. */
const ROUTE_SCHEMA_FIELDS = new Set(['body', 'query', 'response']);
/** Initialisers that build nothing when evaluated: left as they are. */
const INERT = new Set(['Literal', 'Identifier', 'ArrowFunctionExpression', 'FunctionExpression', 'TemplateLiteral']);

type Node = { type: string; start: number; end: number; [k: string]: unknown };
type Edit = { start: number; end: number; text: string };

function walk(node: unknown, visit: (n: Node) => void): void {
  if (Array.isArray(node)) for (const n of node) walk(n, visit);
  else if (node && typeof node === 'object') {
    if (typeof (node as Node).type === 'string') visit(node as Node);
    for (const v of Object.values(node)) if (v && typeof v === 'object') walk(v, visit);
  }
}

function schemaEdits(program: Node): Edit[] {
  const edits: Edit[] = [];
  walk(program, (n) => {
    const callee = n.callee as (Node & { name?: string }) | undefined;
    if (n.type !== 'CallExpression' || callee?.type !== 'Identifier' || callee.name !== 'routeTable') return;
    const table = (n.arguments as Node[])[0];
    if (table?.type !== 'ObjectExpression') return;
    for (const route of table.properties as Node[]) {
      const def = route.value as Node | undefined;
      if (route.type !== 'Property' || def?.type !== 'ObjectExpression') continue;
      for (const field of def.properties as Node[]) {
        const key = field.key as Node & { name?: string };
        if (field.type !== 'Property' || field.computed || key.type !== 'Identifier') continue;
        if (!ROUTE_SCHEMA_FIELDS.has(key.name!)) continue;
        if (field.shorthand) edits.push({ start: field.end, end: field.end, text: ': undefined' });
        else {
          const value = field.value as Node;
          edits.push({ start: value.start, end: value.end, text: 'undefined' });
        }
      }
    }
  });
  return edits;
}

function pureEdits(program: Node): Edit[] {
  const edits: Edit[] = [];
  for (const statement of program.body as Node[]) {
    const decl = statement.type === 'ExportNamedDeclaration' ? (statement.declaration as Node | null) : statement;
    if (decl?.type !== 'VariableDeclaration') continue;
    for (const d of decl.declarations as Node[]) {
      const init = d.init as Node | null;
      if (!init || INERT.has(init.type)) continue;
      edits.push({ start: init.start, end: init.start, text: '/* @__PURE__ */ (() => (' });
      edits.push({ start: init.end, end: init.end, text: '))()' });
    }
  }
  return edits;
}

/** The browser's version of one contract module (see the top of this file); null when it is left as it is. */
export function contractForBrowser(code: string, id: string): string | null {
  const program = parseSync(id, code, { lang: 'ts', sourceType: 'module' }).program as unknown as Node;
  const edits = [...schemaEdits(program), ...pureEdits(program)];
  if (edits.length === 0) return null;
  // From the end, so earlier offsets stay valid; a schema value lies strictly inside its constant's initialiser.
  edits.sort((a, b) => b.start - a.start || b.end - a.end);
  let out = code;
  for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** The vite plugin (build only): contract modules rewritten by contractForBrowser and marked side-effect free. */
export function contractForBrowserPlugin(): Plugin {
  return {
    name: 'geosentry-contract-for-browser',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!/\/contract\/src\/.*\.ts$/.test(id) || /\.test\.ts$/.test(id)) return null;
      return { code: contractForBrowser(code, id) ?? code, map: null, moduleSideEffects: false };
    },
  };
}
