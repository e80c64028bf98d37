import type { Plugin, UserConfig } from 'vite';

/**
 * How the console's code is cut into files (issue 24 item 6: a first load takes at most 20 JS
 * requests; it was ~124 one-to-ten-kilobyte chunks, one per antd component and shared module).
 *
 * - `react`: React, the router and the stores' zustand — what every page, the login page too, runs.
 * - `antd`: antd, its rc-components, icons, CSS-in-JS, dayjs and react-query: every console page
 *   uses them, and the lite login page never loads them.
 * - `charts`: ECharts, only for the statistics page, which loads it when it draws a chart.
 * - `antd-mobile`: the H5 pages (/m-*, the buyer's scan page).
 * - `app`: the console's own shared code (lib, api, stores, hooks, components), the shared package
 *   (schemas, money, messages) with zod and decimal.js — minus every module the login page's first
 *   load reaches, which `liteModules` finds in the module graph, so the login page stays antd-free
 *   and small (bench/login-bundle.ts).
 * - `lite`: those modules — the entry's and the login page's own code (not libraries), the login
 *   page itself included (issue 11): the router draws the login page in its first render
 *   (app/router.tsx), so its code comes with the entry's first scripts, in one file with the rest
 *   instead of the five small ones (page, hooks, API, style) it was asked for in once the entry had
 *   run — a round trip more on a phone's network, 0.5–0.7 s of Lighthouse's mobile LCP. Like the
 *   rest of `lite` it is antd-free; a console page's first load is ~8 KB (gzip ~4 KB) more with it.
 * Pages and dialogs stay lazy chunks of their own.
 */

const nm = (names: string) => new RegExp(`node_modules[\\\\/](?:${names})[\\\\/]`);
const SEP = '[\\\\/]';
const ANY = `[^\\\\/]+`;

export const VENDOR_GROUPS = {
  react: nm(
    'react|react-dom|scheduler|react-router|cookie|set-cookie-parser|zustand|use-sync-external-store',
  ),
  antd: nm(
    [
      'antd',
      `@ant-design${SEP}${ANY}`,
      `@rc-component${SEP}${ANY}`,
      `rc-${ANY}`,
      'dayjs',
      'classnames',
      `@babel${SEP}runtime`,
      `@emotion${SEP}${ANY}`,
      'stylis',
      'resize-observer-polyfill',
      'throttle-debounce',
      'compute-scroll-into-view',
      'scroll-into-view-if-needed',
      'json2mq',
      'string-convert',
      'copy-to-clipboard',
      'toggle-selection',
      'react-is',
      `@tanstack${SEP}${ANY}`,
    ].join('|'),
  ),
  charts: nm('echarts|zrender|echarts-for-react|size-sensor'),
  mobile: nm(`antd-mobile|antd-mobile-icons|@react-spring${SEP}${ANY}|@use-gesture${SEP}${ANY}`),
};

/** The console's shared code, the shared package and its libraries (see above). */
export const APP_SHARED =
  /[\\/]apps[\\/]web[\\/]src[\\/](?:lib|api|stores|hooks|components)[\\/]|[\\/]packages[\\/]shared[\\/]|node_modules[\\/](?:zod|decimal\.js)[\\/]/;

/** The login route's module, whose static imports (with the entry's) make the lite first load. */
export const LOGIN_ROUTE = /[\\/]src[\\/]app[\\/]routes[\\/]user[\\/]login\.tsx$/;

/**
 * Collects, once the module graph is complete, every module the entry or the login route reach
 * by static imports: `app` leaves them out, so the login page never loads the console's shared
 * chunk (nor antd, which parts of it import).
 */
export function liteModules(): { plugin: Plugin; has: (id: string) => boolean } {
  const lite = new Set<string>();
  const plugin: Plugin = {
    name: 'kaipiao:lite-modules',
    apply: 'build',
    buildEnd() {
      lite.clear();
      const roots: string[] = [];
      for (const id of this.getModuleIds()) {
        const info = this.getModuleInfo(id);
        if (info?.isEntry || LOGIN_ROUTE.test(id)) roots.push(id);
      }
      const walk = (id: string) => {
        if (lite.has(id)) return;
        lite.add(id);
        for (const next of this.getModuleInfo(id)?.importedIds ?? []) walk(next);
      };
      for (const root of roots) walk(root);
    },
  };
  return { plugin, has: (id) => lite.has(id) };
}

type Output = NonNullable<NonNullable<NonNullable<UserConfig['build']>['rolldownOptions']>['output']>;

/** The rolldown `output.codeSplitting` groups described above. */
export function codeSplitting(isLite: (id: string) => boolean): Output {
  return {
    // the `lite` and `app` groups leave their modules' imports where they are: rolldown then keeps
    // each module's evaluation order across chunks itself
    strictExecutionOrder: true,
    codeSplitting: {
      groups: [
        { name: 'react', test: VENDOR_GROUPS.react, priority: 60 },
        { name: 'antd', test: VENDOR_GROUPS.antd, priority: 50 },
        { name: 'charts', test: VENDOR_GROUPS.charts, priority: 30 },
        { name: 'antd-mobile', test: VENDOR_GROUPS.mobile, priority: 30 },
        {
          name: 'lite',
          test: (id: string) => !id.includes('node_modules') && isLite(id),
          priority: 25,
          includeDependenciesRecursively: false,
        },
        {
          name: 'app',
          test: (id: string) => APP_SHARED.test(id) && !isLite(id),
          priority: 20,
          includeDependenciesRecursively: false,
        },
      ],
    },
  };
}
