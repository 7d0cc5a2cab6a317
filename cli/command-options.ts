// The options of a subcommand, parsed the same way by each: strictly (an unknown option or a
// missing value is an error naming it), no positional arguments unless the command takes a FILE; `--help` prints the usage
// (exit 0), and a bad option prints what is wrong and then the usage (exit 2), never a stack.
import { parseArgs, type ParseArgsConfig } from 'node:util';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

type Values<T extends OptionsConfig> = ReturnType<typeof parseArgs<{ args: string[]; options: T; strict: true; allowPositionals: false }>>['values'];

/** The parsed values, or the exit status when `--help` was answered or the options were refused. */
export function parseCommandOptions<const T extends OptionsConfig & { readonly help: { readonly type: 'boolean' } }>(
  command: string,
  args: string[],
  options: T,
  help: string,
  /** `true`: operands (a FILE) are allowed, returned in `positionals`. */
  allowPositionals = false,
): { values: Values<T>; positionals: string[] } | { exit: number } {
  let values: Values<T>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args, options, strict: true, allowPositionals }) as { values: Values<T>; positionals: string[] });
  } catch (err) {
    process.stderr.write(`chessclock ${command}: ${(err as Error).message}\n\n${help}\n`);
    return { exit: 2 };
  }
  if ((values as { help?: boolean }).help) {
    process.stdout.write(help + '\n');
    return { exit: 0 };
  }
  return { values, positionals };
}
