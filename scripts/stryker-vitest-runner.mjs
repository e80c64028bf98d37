// Stryker's vitest runner, with one fix (issue 22): a test file whose file-level `beforeAll` fails
// (the app does not build, the demo login fails) marks its tests "skipped", and the runner 9.6
// only looks for a failed *describe* above a skipped test, not for a failed file. A mutant that
// breaks every test's setup (e.g. session creation) then counts as "survived" with no test run.
// Here such a run counts as killed by the tests that were asked to run. Used by stryker.config.mjs.
import { INSTRUMENTER_CONSTANTS } from '@stryker-mutator/api/core';
import { commonTokens, declareFactoryPlugin, PluginKind, tokens } from '@stryker-mutator/api/plugin';
import { MutantRunStatus } from '@stryker-mutator/api/test-runner';
import { VitestTestRunner } from '../node_modules/@stryker-mutator/vitest-runner/dist/src/vitest-test-runner.js';

/** the first error of a test file that failed outside its tests (a hook, an import) */
export function fileFailure(files) {
  for (const file of files) {
    if (file.result?.state !== 'fail') continue;
    const hasFailedTest = (suite) =>
      suite.tasks.some((t) => (t.type === 'suite' ? hasFailedTest(t) : t.result?.state === 'fail'));
    if (hasFailedTest(file)) continue;
    const message = file.result.errors?.[0]?.message ?? 'the test file failed outside its tests';
    return `${file.name}: ${message}`;
  }
  return undefined;
}

const INFRA_FAILURE =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|too many clients|terminating connection|the database system is|Connection terminated|timeout exceeded when trying to connect/i;

class HookAwareVitestRunner extends VitestTestRunner {
  static inject = VitestTestRunner.inject;

  async mutantRun(options) {
    const result = await super.mutantRun(options);
    if (result.status !== MutantRunStatus.Survived) return result;
    const failure = fileFailure(this.ctx.state.getFiles());
    if (!failure) return result;
    // the database went away (another run stopped it, the machine ran out of connections): that
    // is no verdict on the mutant; Stryker counts an error as neither killed nor survived
    if (INFRA_FAILURE.test(failure)) return { status: MutantRunStatus.Error, errorMessage: failure };
    return {
      status: MutantRunStatus.Killed,
      failureMessage: failure,
      killedBy: options.testFilter ?? [],
      nrOfTests: result.nrOfTests,
    };
  }
}

function createRunner(injector) {
  return injector
    .provideValue('globalNamespace', INSTRUMENTER_CONSTANTS.NAMESPACE)
    .injectClass(HookAwareVitestRunner);
}
createRunner.inject = tokens(commonTokens.injector);

export const strykerPlugins = [declareFactoryPlugin(PluginKind.TestRunner, 'vitest-hooks', createRunner)];
