import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

// The dev server proxies the API (and its socket) to the server on PORT (default 8080).
const api = `http://127.0.0.1:${process.env.PORT ?? 8080}`;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/**
 * Writes <file>.br and <file>.gz next to every text asset over 1 KB, once at build time, so the server sends them
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
          if (raw.length < 1024) return;
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

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    port: Number(process.env.WEB_PORT ?? 5173),
    proxy: { '/api': { target: api, ws: true } },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 2000,
    rollupOptions: {
      output: {
        manualChunks(id: string) {
          // One chunk per language: only the active one is loaded (src/shared/i18n.ts).
          const locale = /\/src\/locales\/(\w+)\/[\w-]+\.json$/.exec(id);
          if (locale) return `locale-${locale[1]}`;
          // React and the router: used by every screen, one long-cached chunk. antd is left to the bundler, which
          // puts each component with the screens that use it (a component several lazy screens share goes to a
          // shared chunk), so the login page does not download the tables, pickers and trees of the console.
          if (/node_modules\/(react|react-dom|scheduler|react-router|react-router-dom)\//.test(id)) return 'react';
          return undefined;
        },
      },
    },
  },
});
