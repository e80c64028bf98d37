import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { codeSplitting, liteModules } from './build/chunks.ts';
import { precompress } from './build/precompress.ts';
import { productionBuild } from './build/production.ts';

const server = 'http://localhost:8080';
const proxy = {
  '/v3': server,
  '/v1': server,
  '/sandbox': server,
  '/ws': { target: server, ws: true },
};

const lite = liteModules();

export default defineConfig({
  // build only: a production runtime whatever NODE_ENV says, then .br/.gz twins (issue 11 item 1)
  plugins: [productionBuild(), react(), lite.plugin, precompress()],
  // one React for every package, even if the workspace install nests a second copy
  resolve: { dedupe: ['react', 'react-dom'] },
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    // a few large files instead of ~120 small ones (build/chunks.ts)
    rolldownOptions: { output: codeSplitting(lite.has) },
  },
});
