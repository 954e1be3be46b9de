import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { contractForBrowserPlugin } from '../tools/vite-contract.ts';
import { BOOT_NAMESPACES } from './src/shared/boot-namespaces.ts';

// The dev server proxies the API (and its socket) to the server on PORT (default 8080).
const api = `http://127.0.0.1:${process.env.PORT ?? 8080}`;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/**
 * Writes <file>.br and <file>.gz next to every text asset (small ones too: a screen loads dozens of chunks
 * under 1 KB), once at build time, so the server sends them
 * as they are (@fastify/static preCompressed) instead of compressing on each request. A variant that is not
 * smaller is not written (the server then sends the plain file).
 */
function precompress(): Plugin {
  return {
    name: 'geosentry-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? path.resolve('dist');
      const files = Object.keys(bundle).filter((f) => /\.(js|mjs|css|html|svg|json)$/.test(f));
      await Promise.all(
        files.map(async (f) => {
          const file = path.join(dir, f);
          const raw = await readFile(file);
          const [br, gzipped] = await Promise.all([
            brotli(raw, {
              params: {
                [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
                [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length,
              },
            }),
            gz(raw, { level: 9 }),
          ]);
          if (br.length < raw.length) await writeFile(`${file}.br`, br);
          if (gzipped.length < raw.length) await writeFile(`${file}.gz`, gzipped);
        }),
      );
    },
  };
}

const SRC = path.resolve(import.meta.dirname, 'src');
/** The names a set of source files import from @ant-design/icons. */
function iconsOf(files: string[]): Set<string> {
  const names = new Set<string>();
  for (const f of files.filter((f) => /\.tsx?$/.test(f) && existsSync(f) && statSync(f).isFile()))
    for (const m of readFileSync(f, 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*'@ant-design\/icons'/g))
      for (const n of m[1]!.split(',')) if (n.trim()) names.add(n.trim().split(/\s+as\s+/)[0]!);
  return names;
}
const filesIn = (dir: string): string[] => readdirSync(path.join(SRC, dir)).map((f) => path.join(SRC, dir, f));
/** The icons antd's own components show (a close cross, a spinner, the alert and message icons). */
function antdIcons(): Set<string> {
  const dir = path.resolve(import.meta.dirname, '../node_modules/antd/es');
  const names = new Set<string>();
  for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' }))
    if (f.endsWith('.js'))
      for (const m of readFileSync(path.join(dir, f), 'utf8').matchAll(/@ant-design\/icons\/es\/icons\/(\w+)/g))
        names.add(m[1]!);
  return names;
}
/**
 * The icons of the side menu, header and tabs (imported by the route files and the layout), less those the login
 * page or antd's components show: one chunk for the console's first screen instead of some thirty files of under a
 * kilobyte each.
 */
const MENU_ICONS = ((): Set<string> => {
  const login = new Set([...iconsOf([...filesIn('features/session'), ...filesIn('shared/ui')]), ...antdIcons()]);
  const menu = iconsOf([
    path.join(SRC, 'app/routes.tsx'),
    ...readdirSync(path.join(SRC, 'features')).map((f) => path.join(SRC, 'features', f, 'routes.tsx')),
    ...filesIn('app/layout'),
  ]);
  return new Set([...menu].filter((n) => !login.has(n)));
})();

export default defineConfig({
  // The contract without the schemas a screen does not validate with (tools/vite-contract.ts).
  plugins: [react(), precompress(), contractForBrowserPlugin()],
  server: {
    port: Number(process.env.WEB_PORT ?? 5173),
    proxy: { '/api': { target: api, ws: true } },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 2000,
    rollupOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // React and the router: used by every screen, one long-cached chunk. antd is left to the bundler,
              // which puts each component with the screens that use it (a component several lazy screens share
              // goes to a shared chunk), so the login page does not download the tables, pickers and trees.
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/,
              priority: 30,
            },
            {
              // Two chunks per language, only the active one's loaded (src/shared/i18n.ts): the catalogues of the
              // public pages (BOOT_NAMESPACES, first) and the others (with the console's layout).
              name(id) {
                const locale = /[\\/]src[\\/]locales[\\/](\w+)[\\/]([\w-]+)\.json$/.exec(id);
                if (!locale) return null;
                return BOOT_NAMESPACES.includes(locale[2]!) ? `locale-${locale[1]}-boot` : `locale-${locale[1]}`;
              },
              priority: 20,
            },
            {
              // The icons of the side menu, header and tabs: one chunk (MENU_ICONS), without what they import
              // (the icon base goes where the bundler puts it, with the login page's icons).
              name: 'menu-icons',
              test: (id) =>
                MENU_ICONS.has(
                  /@ant-design[\\/]icons(?:-svg)?[\\/]es[\\/](?:icons|asn)[\\/](\w+)\.js$/.exec(id)?.[1] ?? '',
                ),
              includeDependenciesRecursively: false,
              priority: 10,
            },
          ],
        },
      },
    },
  },
});
