#!/usr/bin/env node
import { main } from './main.js'
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
})
