import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { contractForBrowserPlugin } from '../tools/vite-contract.ts';
import { BOOT_NAMESPACES, CONSOLE_NAMESPACES } from './src/shared/boot-namespaces.ts';

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
      const text = (f: string) => /\.(js|mjs|css|html|svg|json)$/.test(f);
      // The bundle's files, and those copied from public/ (read from their source: the copy may not be there yet).
      const publicDir = path.resolve(import.meta.dirname, 'public');
      const copied = existsSync(publicDir) ? readdirSync(publicDir).filter(text) : [];
      const files = [
        ...Object.keys(bundle)
          .filter(text)
          .map((f) => ({ f, src: path.join(dir, f) })),
        ...copied.map((f) => ({ f, src: path.join(publicDir, f) })),
      ];
      await Promise.all(
        files.map(async ({ f, src }) => {
          const file = path.join(dir, f);
          const raw = await readFile(src);
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

/** antd's table column filter menu is replaced by src/shared/table/noColumnFilters.ts (see there why). */
function withoutColumnFilters(): Plugin {
  const stub = path.join(SRC, 'shared/table/noColumnFilters.ts');
  return {
    name: 'geosentry-without-column-filters',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!/[\\/]useFilter[\\/]FilterDropdown(\.js)?$/.test(source) && source !== './FilterDropdown') return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && /antd[\\/]es[\\/]table[\\/]hooks[\\/]useFilter[\\/]FilterDropdown\.js$/.test(resolved.id)
        ? stub
        : null;
    },
  };
}

/** The modules that start the pages: the entry, the console, the 404 page, and the pages kept light (no console). */
const ROOT_MODULES = {
  entry: /[\\/]src[\\/]main\.tsx$/,
  console: /[\\/]src[\\/]app[\\/]Console\.tsx$/,
  notFound: /[\\/]src[\\/]app[\\/]NotFoundPage\.tsx$/,
  login: /[\\/]src[\\/]features[\\/]session[\\/]LoginPage\.tsx$/,
  bigScreen: /[\\/]src[\\/]features[\\/][\w/\\]*[\\/]BigScreenPage\.tsx$/,
  home: /[\\/]src[\\/]features[\\/][\w/\\]*[\\/]HomePage\.tsx$/,
  routeTree: /[\\/]src[\\/]app[\\/](routes\.tsx|route-tree\.ts)$/,
};

type Shell = 'boot' | 'console-base' | 'console' | 'shared-login' | 'shared-big-screen' | 'shared-public';
/** The shell chunk of each module (shellChunks), from the probe build; null during the probe. */
let shellOf: Map<string, Shell> | null = null;
/** True while the probe build runs (its output is not written, and not listed in index.html). */
let probing = false;

/**
 * Puts the shell in a few chunks instead of some hundred files that a browser fetches six at a time over HTTP/1.1:
 * 'boot' (what the entry imports: every page loads it), 'console-base' (what the console and the 404 page share:
 * antd's providers and core), 'console' (the rest of what the console imports: its layout, menu and the antd
 * components they use), and what the console shares with the login page or the big screen ('shared-*', one chunk
 * per set of pages). Every console screen loads the console anyway, and each page needs every module of each shell
 * chunk it loads: no page downloads more than before (the login page and the big screen do not load the console).
 * Which modules those are is known only after tree-shaking (the module graph lists every component antd's index
 * re-exports), so the build runs twice: a probe with the bundler's own chunks, whose chunks and their imports give
 * the modules each start loads (nothing written), then the real build with the groups.
 */
function shellChunks(): Plugin {
  return {
    name: 'geosentry-shell-chunks',
    apply: 'build',
    buildApp: {
      order: 'pre',
      async handler(builder) {
        const client = builder.environments.client;
        if (!client) return;
        probing = true;
        shellOf = null;
        await builder.build(client);
        probing = false;
        await builder.build(client);
      },
    },
    generateBundle(_options, bundle) {
      if (!probing) return;
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (roots: string[]): Set<string> => {
        const seen = new Set<string>();
        const walk = (f: string): void => {
          if (seen.has(f)) return;
          seen.add(f);
          for (const d of byFile.get(f)?.imports ?? []) walk(d);
        };
        roots.forEach(walk);
        return seen;
      };
      const of = (re: RegExp): string[] =>
        chunks.filter((c) => c.facadeModuleId && re.test(c.facadeModuleId)).map((c) => c.fileName);
      const entry = closure(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
      const login = closure(of(ROOT_MODULES.login));
      const bigScreen = closure(of(ROOT_MODULES.bigScreen));
      const notFound = closure(of(ROOT_MODULES.notFound));
      const consoleRoots = of(ROOT_MODULES.console);
      if (consoleRoots.length === 0) this.error('shellChunks: no chunk for src/app/Console.tsx');
      shellOf = new Map();
      const put = (files: Iterable<string>, shell: Shell): void => {
        for (const f of files) for (const m of byFile.get(f)?.moduleIds ?? []) shellOf!.set(m, shell);
      };
      put(entry, 'boot');
      const consoleFiles = [...closure(consoleRoots)].filter((f) => !entry.has(f));
      const only = consoleFiles.filter((f) => !login.has(f) && !bigScreen.has(f));
      put(
        only.filter((f) => !notFound.has(f)),
        'console',
      );
      put(
        only.filter((f) => notFound.has(f)),
        'console-base',
      );
      // What the console shares with the login page or the big screen: one chunk per set of pages that load it
      // (each of those pages needs every module of its chunk, so none of them downloads more).
      put(
        consoleFiles.filter((f) => login.has(f) && !bigScreen.has(f)),
        'shared-login',
      );
      put(
        consoleFiles.filter((f) => !login.has(f) && bigScreen.has(f)),
        'shared-big-screen',
      );
      put(
        consoleFiles.filter((f) => login.has(f) && bigScreen.has(f)),
        'shared-public',
      );
      // The probe writes nothing.
      for (const f of Object.keys(bundle)) delete bundle[f];
    },
  };
}

/**
 * Lists, in index.html, the files a start needs beyond the entry, and runs public/preload.js first thing in the
 * head to ask for them at once (a classic script: the page's policy allows no inline script), instead of as each
 * import is discovered. Per language: the boot catalogues (i18n awaits them before anything renders), the console's
 * catalogues, the screens' titles and antd's and dayjs' locale (the router awaits them with the console). Per start:
 * the login page's files (a start without a session), the console's (with one), home's (JavaScript and CSS) on a
 * start on home. Each list holds the chunks a start imports, less those the entry already loads.
 */
function consolePreload(): Plugin {
  return {
    name: 'geosentry-console-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle || probing) return html;
        const chunks = Object.values(ctx.bundle).filter((c) => c.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const closure = (start: string[], skip = new Set<string>()): Set<string> => {
          const seen = new Set<string>();
          const walk = (file: string): void => {
            if (seen.has(file) || skip.has(file)) return;
            seen.add(file);
            for (const f of byFile.get(file)?.imports ?? []) walk(f);
          };
          start.forEach(walk);
          return seen;
        };
        /** The CSS files of a set of chunks (each chunk's own: vite adds them when the chunk is imported). */
        const css = (files: Set<string>): Set<string> =>
          new Set([...files].flatMap((f) => [...(byFile.get(f)?.viteMetadata?.importedCss ?? [])]));
        const entry = closure(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
        const of = (module: RegExp): string[] =>
          chunks.filter((c) => c.facadeModuleId && module.test(c.facadeModuleId)).map((c) => c.fileName);
        // With the route tree, which the router loads beside the console to load the start screen with it.
        const consoleFiles = closure([...of(ROOT_MODULES.console), ...of(ROOT_MODULES.routeTree)], entry);
        const loginFiles = closure(of(ROOT_MODULES.login), entry);
        const homeFiles = closure(of(ROOT_MODULES.home), new Set([...entry, ...consoleFiles]));
        if (consoleFiles.size === 0) this.error('consolePreload: no chunk for src/app/Console.tsx');
        if (loginFiles.size === 0) this.error('consolePreload: no chunk for the login page');
        if (homeFiles.size === 0) this.error('consolePreload: no chunk for the home page');
        const meta = (name: string, files: Iterable<string>) => ({
          tag: 'meta',
          attrs: { name, content: [...files].map((f) => `/${f}`).join(' ') },
          injectTo: 'head-prepend' as const,
        });
        const UI_LOCALE = {
          en: [],
          zh: [/antd[\\/]es[\\/]locale[\\/]zh_CN\.js$/, /dayjs[\\/]locale[\\/]zh-cn\.js$/],
          ko: [/antd[\\/]es[\\/]locale[\\/]ko_KR\.js$/, /dayjs[\\/]locale[\\/]ko\.js$/],
        };
        const locale = (lang: 'en' | 'zh' | 'ko', namespaces: readonly string[]): RegExp =>
          new RegExp(`[\\\\/]src[\\\\/]locales[\\\\/]${lang}[\\\\/](${namespaces.join('|')})\\.json$`);
        const perLanguage = (['en', 'zh', 'ko'] as const).flatMap((lang) => [
          meta(`gs-preload-boot-${lang}`, closure(of(locale(lang, BOOT_NAMESPACES)), entry)),
          meta(
            `gs-preload-console-${lang}`,
            closure(
              [
                ...of(locale(lang, CONSOLE_NAMESPACES)),
                ...of(new RegExp(`virtual:menu-titles/${lang}$`)),
                ...UI_LOCALE[lang].flatMap(of),
              ],
              entry,
            ),
          ),
        ]);
        return {
          html,
          tags: [
            ...perLanguage,
            meta('gs-preload-login', loginFiles),
            meta('gs-preload-login-css', css(loginFiles)),
            meta('gs-preload-console', consoleFiles),
            meta('gs-preload-console-css', css(consoleFiles)),
            meta('gs-preload-home', homeFiles),
            meta('gs-preload-home-css', css(homeFiles)),
            // After the lists it reads, before the entry's own tags: its requests go out first.
            { tag: 'script', attrs: { src: '/preload.js' }, injectTo: 'head-prepend' as const },
          ],
        };
      },
    },
  };
}

/**
 * `virtual:menu-titles/<lang>`: every screen's title in one language ({namespace: {key: text}}), read from the
 * titleKeys of the route files and the language's catalogues. The console's layout loads it (src/shared/i18n.ts) so
 * the menu, tabs and breadcrumb have their words before the screens' own catalogues are there.
 */
function menuTitles(): Plugin {
  const PREFIX = 'virtual:menu-titles/';
  const routeFiles = (): string[] => [
    path.join(SRC, 'app/routes.tsx'),
    ...readdirSync(path.join(SRC, 'features'))
      .map((f) => path.join(SRC, 'features', f, 'routes.tsx'))
      .filter((f) => existsSync(f)),
  ];
  return {
    name: 'geosentry-menu-titles',
    resolveId: (id) => (id.startsWith(PREFIX) ? `\0${id}` : null),
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return null;
      const lang = id.slice(PREFIX.length + 1);
      const titles: Record<string, Record<string, unknown>> = {};
      for (const file of routeFiles()) {
        this.addWatchFile(file);
        // 'ns:a.b' takes one text; `ns:a.${kind}` takes every text under ns:a.
        for (const m of readFileSync(file, 'utf8').matchAll(
          /titleKey:\s*['`]([\w-]+):([\w.-]+?)(\.\$\{[^}]*\})?['`]/g,
        )) {
          const [, ns, key, variable] = m as unknown as [string, string, string, string | undefined];
          const catalogue = path.join(SRC, 'locales', lang, `${ns}.json`);
          this.addWatchFile(catalogue);
          const parts = key.split('.');
          let value: unknown = JSON.parse(readFileSync(catalogue, 'utf8'));
          for (const part of parts) value = (value as Record<string, unknown> | undefined)?.[part];
          if (typeof value !== (variable ? 'object' : 'string'))
            this.error(`${file}: no text for ${ns}:${key} in ${lang}`);
          let node = (titles[ns] ??= {});
          for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
          node[parts.at(-1)!] = value;
        }
      }
      return `export default ${JSON.stringify(titles)};`;
    },
  };
}
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
  plugins: [
    withoutColumnFilters(),
    react(),
    precompress(),
    contractForBrowserPlugin(),
    menuTitles(),
    shellChunks(),
    consolePreload(),
  ],
  server: {
    port: Number(process.env.WEB_PORT ?? 5173),
    proxy: { '/api': { target: api, ws: true } },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 2000,
    rollupOptions: {
      // antd's rc-component packages declare no sideEffects field, so the bundler keeps every module a package's
      // index re-exports: antd's context layer imports FormProvider from @rc-component/form, and every page then
      // carried the whole form engine and its validator. Their modules have no side effects of their own (styles
      // are injected by hooks at render), so unused ones are left out.
      // A feature's index.ts only re-exports its public surface (and declares lazy screens): marked side-effect
      // free, importing one thing through it (a state tag) no longer loads everything it re-exports (the feature's
      // API module with its form schemas and zod).
      treeshake: {
        moduleSideEffects: (id) =>
          /[\\/]node_modules[\\/]@rc-component[\\/]/.test(id) ||
          /[\\/]src[\\/]features[\\/][^\\/]+[\\/]index\.ts$/.test(id)
            ? false
            : undefined,
      },
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
            // The shell (shellChunks): what the entry imports in one chunk beside React's, what the console imports in
            // two (the part it shares with the 404 page, and the rest), instead of some hundred files that a browser
            // fetches six at a time. Every console screen loads the console's chunks anyway; the login page and the
            // big screen load neither. Their dependencies are not pulled in (includeDependenciesRecursively): a
            // module the login page also imports stays out.
            ...(['boot', 'console-base', 'console', 'shared-login', 'shared-big-screen', 'shared-public'] as const).map(
              (chunk, i) => ({
                name: (id: string) => (shellOf?.get(id) === chunk ? chunk : null),
                debugName: chunk,
                includeDependenciesRecursively: false,
                priority: 28 - i / 10,
              }),
            ),
            {
              // ECharts' modules that several parts share (src/shared/charts/parts.ts) go in one chunk with its core,
              // not in dozens of files of a few hundred bytes each; a module of one part stays in that part's chunk.
              name: 'echarts',
              test: /node_modules[\\/](echarts|zrender|tslib)[\\/]/,
              minShareCount: 2,
              priority: 25,
            },
            {
              // Three chunks per language, only the active one's loaded (src/shared/boot-namespaces.ts): the public
              // pages' catalogues, the console layout's and home's with every screen's title, and the rest.
              name(id) {
                const titles = /virtual:menu-titles\/(\w+)$/.exec(id);
                if (titles) return `locale-${titles[1]}-console`;
                const locale = /[\\/]src[\\/]locales[\\/](\w+)[\\/]([\w-]+)\.json$/.exec(id);
                if (!locale) return null;
                if (BOOT_NAMESPACES.includes(locale[2]!)) return `locale-${locale[1]}-boot`;
                if (CONSOLE_NAMESPACES.includes(locale[2]!)) return `locale-${locale[1]}-console`;
                return `locale-${locale[1]}`;
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
