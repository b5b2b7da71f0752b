/**
 * A result the CLI would save over a file already there (`--out` without
 * `--overwrite`): nothing was downloaded, and the file is as it was. A task
 * id is the gateway's word, so a file of an earlier run may bear its name.
 */
export class OutputExistsError extends Error {
  override name = 'OutputExistsError'
  constructor(readonly file: string) {
    super(`${file} already exists, so the result was not saved over it: move it away, or pass --overwrite to replace it`)
  }
}
