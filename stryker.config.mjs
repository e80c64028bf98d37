// @ts-check
// Mutation testing of the rule modules (issue 22, docs/testing.md). One module per run:
//   npm run mutation -- <module>        (scripts/mutation.sh sets KP_MUTATION_MODULE)
// Not part of `npm test`: a module takes minutes to tens of minutes on a 2-core machine.

/**
 * @typedef {{ config: string, tests: string[], mutate: string[], concurrency?: number, note: string }} MutationModule
 * `tests`: the test files (relative to the vitest config's folder) whose tests must kill the
 * module's mutants; scripts/mutation.sh passes them to vitest as KP_MUTATION_TESTS.
 */

const src = (dir, files) => files.map((f) => `${dir}/${f}`);

/** @type {Record<string, MutationModule>} */
export const MODULES = {
  money: {
    note: 'shared money, 大写, check codes, ids',
    config: 'packages/shared/vitest.config.ts',
    tests: ['src/money/*.test.ts'],
    mutate: src('packages/shared/src/money', [
      'capital.ts',
      'check.ts',
      'compute.ts',
      'decimal.ts',
      'ids.ts',
      'qr.ts',
      'rates.ts',
    ]),
  },
  schemas: {
    note: 'shared request schemas and validation helpers',
    config: 'packages/shared/vitest.config.ts',
    tests: ['src/schemas/*.test.ts', 'src/validation/*.test.ts'],
    mutate: ['packages/shared/src/schemas/*.ts', 'packages/shared/src/validation/*.ts', '!**/*.test.ts'],
  },
  auth: {
    note: 'sign-in: passwords, picture and SMS codes, two-factor, lockouts, sessions issued',
    config: 'apps/server/vitest.config.ts',
    tests: ['src/modules/auth/*.test.ts'],
    concurrency: 1,
    mutate: src('apps/server/src/modules/auth', [
      'account-routes.ts',
      'captcha.ts',
      'mfa-ticket.ts',
      'password-change.ts',
      'service.ts',
      'session-issue.ts',
      'sms-codes.ts',
      'repo.ts',
    ]),
  },
  access: {
    note: 'session/access, authority (menus, grey entries), plugins/auth, the store scope',
    config: 'apps/server/vitest.config.ts',
    tests: [
      'src/modules/session/*.test.ts',
      'src/modules/authority/*.test.ts',
      'src/plugins/*.test.ts',
      'src/lib/scope.test.ts',
      'test/scope-matrix.test.ts',
    ],
    concurrency: 1,
    mutate: [
      'apps/server/src/modules/session/access.ts',
      'apps/server/src/modules/session/service.ts',
      'apps/server/src/modules/authority/compute-menu.ts',
      'apps/server/src/modules/authority/routes.ts',
      'apps/server/src/plugins/auth.ts',
      'apps/server/src/lib/scope.ts',
    ],
  },
  'red-info': {
    note: 'red-letter forms and voids',
    config: 'apps/server/vitest.config.ts',
    tests: ['src/modules/red-info/*.test.ts'],
    concurrency: 1,
    mutate: src('apps/server/src/modules/red-info', [
      'lines.ts',
      'service.ts',
      'blue-info.ts',
      'void.ts',
      'repo.ts',
      'red-invoice-repo.ts',
      'routes.ts',
    ]),
  },
  invoices: {
    note: 'blue issuing: validation, serials, the issuing path and its strategies, metadata',
    config: 'apps/server/vitest.config.ts',
    tests: ['src/modules/invoices/*.test.ts', 'src/modules/invoices/issue/*.test.ts'],
    concurrency: 1,
    mutate: src('apps/server/src/modules/invoices', [
      'validate.ts',
      'service.ts',
      'issue/index.ts',
      'issue/eligibility.ts',
      'issue/eligibility-sql.ts',
      'issue/channel-call.ts',
      'issue/group-commit.ts',
      'issue/transitions.ts',
      'issue/reconcile.ts',
      'issue/repo.ts',
      'repo.ts',
      'routes.ts',
      'metadata-routes.ts',
      'metadata-repo.ts',
    ]),
  },
  scan: {
    note: 'scan-to-invoice: codes, buyer requests, audit queue',
    config: 'apps/server/vitest.config.ts',
    tests: ['src/modules/scan/*.test.ts'],
    concurrency: 1,
    mutate: src('apps/server/src/modules/scan', [
      'settings.ts',
      'codes.ts',
      'buyer.ts',
      'requests.ts',
      'repo.ts',
      'requests-repo.ts',
      'routes.ts',
      'public-routes.ts',
    ]),
  },
  batches: {
    note: 'batch import: parse, split, build, runner',
    config: 'apps/server/vitest.config.ts',
    tests: ['src/modules/batches/*.test.ts'],
    concurrency: 1,
    mutate: src('apps/server/src/modules/batches', [
      'build.ts',
      'columns.ts',
      'parse.ts',
      'split.ts',
      'service.ts',
      'repo.ts',
      'upload-repo.ts',
      'runner.ts',
      'runner-repo.ts',
      'routes.ts',
    ]),
  },
  query: {
    note: 'library query scope and exports',
    config: 'apps/server/vitest.config.ts',
    tests: ['src/modules/query/*.test.ts'],
    concurrency: 1,
    mutate: src('apps/server/src/modules/query', [
      'scope.ts',
      'exports.ts',
      'export-sweep.ts',
      'export-runner.ts',
      'export-repo.ts',
      'repo.ts',
      'routes.ts',
    ]),
  },
  web: {
    note: "the web's issue-form validation and permission-gated actions",
    config: 'apps/web/vitest.config.ts',
    tests: [
      'src/features/invoice-issue/utils/*.test.ts',
      'src/lib/permissions.test.ts',
      'src/components/invoice-actions/invoice-red-actions.test.tsx',
    ],
    mutate: [
      'apps/web/src/features/invoice-issue/utils/validate.ts',
      'apps/web/src/lib/permissions.ts',
      'apps/web/src/components/invoice-actions/invoice-red-actions.tsx',
    ],
  },
};

const name = process.env.KP_MUTATION_MODULE ?? '';
const mod = MODULES[name];
// KP_MUTATION_PART=<file>: one file of the module, with reports of its own (scripts/mutation-parts.sh)
const part = process.env.KP_MUTATION_PART;
const report = part ? `${name}.${part.replace(/^.*\//, '').replace(/\.tsx?$/, '')}` : name;
if (!mod) {
  throw new Error(
    `KP_MUTATION_MODULE must be one of: ${Object.keys(MODULES).join(', ')} (got "${name}"); run npm run mutation -- <module>`,
  );
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  // the vitest runner, counting a test file whose beforeAll failed as failed (see the plugin)
  testRunner: 'vitest-hooks',
  plugins: ['@stryker-mutator/vitest-runner', './scripts/stryker-vitest-runner.mjs'],
  vitest: { configFile: mod.config, related: false },
  coverageAnalysis: 'perTest',
  mutate: part ? [part] : mod.mutate,
  // module-level constants would make every test run for every such mutant; the rules are in functions
  ignoreStatic: true,
  concurrency: Number(process.env.KP_MUTATION_CONCURRENCY ?? mod.concurrency ?? 2),
  timeoutMS: 20_000,
  // the initial run of a big module (batches: ~520 tests) passes 5 minutes on a busy 2-core machine
  dryRunTimeoutMinutes: 30,
  tempDirName: '.tmp/stryker',
  // what the sandbox need not copy (databases, builds, reports)
  ignorePatterns: ['.tmp', 'reports', 'data', 'dist', 'test-results', 'playwright-report', 'artifacts'],
  cleanTempDir: true,
  incremental: true,
  incrementalFile: `reports/mutation/${report}.incremental.json`,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${report}.html` },
  jsonReporter: { fileName: `reports/mutation/${report}.json` },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  thresholds: { high: 90, low: 80, break: null },
};
