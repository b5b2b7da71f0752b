// The same app's text part alone: stream a response into the page.
import { createClient, responses$, textDeltas } from '../../dist/browser/index.js'

const client = createClient({ baseUrl: '/api/rxgate' })
const out = document.querySelector('#out')
responses$(client, { model: 'gpt-4.1-mini', input: 'Write a video prompt', stream: true })
  .pipe(textDeltas())
  .subscribe((delta) => out.append(delta))
