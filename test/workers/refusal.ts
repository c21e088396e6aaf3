import { GatewayError } from '../../src/errors';

/** The GatewayError `run` throws, as its code, param and message; fails the test when it throws none. */
export function refusalOf(run: () => unknown): { code: string; param: string | undefined; message: string } {
  try {
    run();
  } catch (err) {
    if (err instanceof GatewayError) return { code: err.code, param: err.options.param, message: err.message };
    throw err;
  }
  throw new Error('expected a GatewayError, got none');
}
