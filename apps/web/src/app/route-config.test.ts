import { MENU } from '@kaipiao/shared/constants/menu';
import { describe, expect, it } from 'vitest';
import { ALL_ROUTES, CONSOLE_ROUTES, findRoute, MAIN_MENU } from './route-config.tsx';

describe('route table', () => {
  it('has one console route per permission url of the catalogue, titled from it', () => {
    expect(CONSOLE_ROUTES.map((r) => r.path).sort()).toEqual(MENU.map((m) => m.url).sort());
    for (const m of MENU) expect(findRoute(m.url)?.title).toBe(m.title);
  });

  it('puts every main-area route in a sidebar section and no group route in one', () => {
    const sections = new Set(MAIN_MENU.map((s) => s.key));
    for (const r of CONSOLE_ROUTES) {
      if (r.layout === 'group') expect(r.section).toBeUndefined();
      else expect(sections.has(r.section ?? 'home')).toBe(true);
    }
  });

  it('points every hidden route at a menu item to highlight', () => {
    for (const r of CONSOLE_ROUTES.filter((x) => x.hidden)) {
      expect(findRoute(r.activeMenu ?? '')?.hidden).toBeFalsy();
    }
  });

  it('opens every /external/* print page outside the console tabs, never kept alive (spec §2)', () => {
    const external = ALL_ROUTES.filter((r) => r.path.startsWith('/external/'));
    expect(external.map((r) => r.path).sort()).toEqual([
      '/external/print-red-info',
      '/external/print-ticket',
      '/external/receipt',
    ]);
    for (const r of external) expect(r).toMatchObject({ layout: 'blank', keepAlive: false });
  });
});
