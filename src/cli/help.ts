/** The usage texts: `rxgate help`, `rxgate help <command>`, `rxgate <command> --help`. */
export const HELP: Readonly<Record<string, string>> = {
  main: `rxgate: call a generative-model gateway from the terminal.

Usage: rxgate <command> [options]

Commands:
  sim [--port N]                          run the gateway simulator until Ctrl-C
  respond "<text>" [--stream] [--model M] create a model response
  video "<prompt>" [--size W*H] [--duration 5|10] [--audio URL] [--out DIR]
                                          create a text-to-video task and follow it
  task <endpoint> <id> [--out DIR]        follow an existing task, saving its results with --out
                                          (endpoint: t2vSpark, videoOne, i2vSpark, videoTwo,
                                          imageEdit, i2iPreview or vendor/model)
  bot ["<topic>"] [--model M] [--out DIR] write a video prompt, render it, save the video
  help [command]                          show this help, or a command's

Every command takes --json (one JSON document on stdout; progress stays on stderr),
--sim (use an embedded simulator) and --help; video, task and bot take --poll-ms N
(poll tasks every N ms), and --overwrite (with --out, replace a file already there).
A flag a command does not take is bad input.
The gateway is GATEWAY_BASE_URL with GATEWAY_API_KEY; with neither set, or with --sim,
an embedded simulator is started (its URLs stop working when rxgate exits: run
rxgate sim and set the two variables it prints for lasting ones).
Exit codes: 0 done, 1 gateway or task failure, 2 bad input, 130 cancelled (Ctrl-C),
143 stopped by SIGTERM; a closed terminal (SIGHUP) ends it by that signal (a shell shows 129).`,
  sim:
    'Usage: rxgate sim [--port N] [--json]\n' +
    'Runs the gateway simulator on 127.0.0.1 and prints GATEWAY_BASE_URL and GATEWAY_API_KEY to set in another terminal\n' +
    '(with --json, one JSON document). Its tasks finish in about 1.5 s: pass --poll-ms 200 to rxgate video or rxgate task to see every step. Ctrl-C stops it.',
  respond:
    'Usage: rxgate respond "<text>" [--stream] [--model M] [--json]\n' +
    'Creates a model response and prints its text (streamed as it arrives with --stream).\n' +
    'With --json: the Response as one JSON document; with --stream --json, one JSON event per line.',
  video:
    'Usage: rxgate video "<prompt>" [--size W*H] [--duration 5|10] [--audio URL] [--out DIR] [--overwrite] [--poll-ms N] [--json]\n' +
    'Creates a text-to-video task, shows its progress on stderr and prints the video URLs.\n' +
    '--size is width*height, e.g. 1280*720 (1280x720 works too). --audio checks the file first\n' +
    '(WAV or MP3, 3 to 30 s, at most 15 MB) and shows what it found before the task is created.\n' +
    '--out saves the video under DIR, with a progress bar on stderr; a file already there is kept (the command fails) unless --overwrite. With --json: the completed task as one JSON document.',
  task:
    'Usage: rxgate task <endpoint> <id> [--out DIR] [--overwrite] [--poll-ms N] [--json]\n' +
    'Follows an existing task until it ends and prints its result URLs; --out saves the results under DIR before they expire\n' +
    '(a file already there is kept, and the command fails, unless --overwrite).\n' +
    'With --json: the completed task as one JSON document.',
  bot:
    'Usage: rxgate bot ["<topic>"] [--topic T] [--model M] [--out DIR] [--overwrite] [--poll-ms N] [--json]\n' +
    'Streams a response that writes a video prompt about the topic (given plainly or with --topic), renders it, and saves the video under DIR (default ./out).\n' +
    'With --json: the result as one JSON document (the prompt streams to stderr).',
  help: 'Usage: rxgate help [command]\nShows the usage of rxgate, or of one command.',
}

/** Whether `name` is a command (not the main text). */
export function isCommand(name: string): boolean {
  return name !== 'main' && Object.hasOwn(HELP, name)
}
