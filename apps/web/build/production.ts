import type { Plugin } from 'vite';

/**
 * The web build is always a production build (issue 11 item 1). Vite takes the runtime from
 * process.env.NODE_ENV when it is set, so `NODE_ENV=development npm start` (or a server started
 * that way) would ship React's development runtime (jsxDEV, dev warnings; a third larger). Vite
 * reads NODE_ENV after the plugins' `config` hooks, so forcing it here decides `isProduction`, the
 * `process.env.NODE_ENV` define and plugin-react's JSX runtime. The dev server is left alone.
 */
export function productionBuild(): Plugin {
  return {
    name: 'kaipiao:production-build',
    apply: 'build',
    config() {
      process.env.NODE_ENV = 'production';
    },
    configResolved(config) {
      if (!config.isProduction) throw new Error('kaipiao: the web build must be a production build');
    },
    generateBundle(_options, bundle) {
      // the guard behind the guard: React's development-only code in an output chunk fails the build
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const marker = DEV_ONLY.find((m) => chunk.code.includes(m));
        if (marker) this.error(`${chunk.fileName} holds React's development runtime ("${marker}")`);
      }
    },
  };
}

/** Strings only React's development builds contain. */
export const DEV_ONLY = ['jsxDEV', 'Each child in a list should have a unique'];
