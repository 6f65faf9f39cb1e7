import { createOperator } from '../app/operators/operator-accounts.ts';
import { operatorResource } from '../app/resources/operator.ts';
import type { Config } from '../config.ts';
import { AppError } from '../domain/errors.ts';
import { withAppContext } from './app-context.ts';

/** `paygate operator create <e-mail>`: an operator of the console, with the password from the environment. */
export async function createOperatorCommand(
  config: Config,
  email: string,
  password: string | undefined,
): Promise<number> {
  if (!password) {
    process.stderr.write("paygate: set PAYGATE_OPERATOR_PASSWORD to the new operator's password\n");
    return 1;
  }
  return withAppContext(config, async (ctx) => {
    try {
      const operator = await createOperator(ctx, { email, password });
      process.stdout.write(
        `${JSON.stringify(operatorResource(operator), null, 2)}\nSign in at ${config.publicUrl}/operator/sign-in\n`,
      );
      return 0;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      process.stderr.write(`paygate: ${error.message}\n`);
      return 1;
    }
  });
}
