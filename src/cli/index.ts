#!/usr/bin/env node
import { main, unexpectedLine } from './main.js'
import { maskedOutput } from './maskedOutput.js'
import { EXIT } from './run.js'

// A closed terminal (EIO) or a reader gone (EPIPE) makes writes fail: the
// command still ends as it would, and a failed write never throws.
process.stdout.on('error', () => undefined)
process.stderr.on('error', () => undefined)

main(process.argv.slice(2)).then((code) => {
  if (code === EXIT.hangup) {
    // The terminal is gone. Once the cleanup ends (the partial file removed), end by the signal itself, as a shell
    // expects: a normal exit would reset the terminal's mode, and Node aborts when that terminal no longer exists.
    process.once('beforeExit', () => process.kill(process.pid, 'SIGHUP'))
  }
  process.exitCode = code
}, (err: unknown) => {
  // main reports its own failures; this catches a throw outside its reach (the simulator failing to close), as one masked line.
  const stderr = maskedOutput((text) => process.stderr.write(text), process.env.GATEWAY_API_KEY?.trim())
  stderr.write(`${unexpectedLine(err)}\n`)
  stderr.flush()
  process.exitCode = EXIT.failed
})
