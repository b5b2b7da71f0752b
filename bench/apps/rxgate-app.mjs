// A small browser app: stream a response into the page, then render it as a video.
// It calls the app's own server (rxgate/server holds the key), so no key is in the bundle.
import { createClient, outputText, responses$, taskUrls, textDeltas, textToVideo$ } from '../../dist/browser/index.js'
import { share, switchMap } from 'rxjs'

const client = createClient({ baseUrl: '/api/rxgate' })
const out = document.querySelector('#out')
const events$ = responses$(client, { model: 'gpt-4.1-mini', input: 'Write a video prompt', stream: true }).pipe(share())
events$.pipe(textDeltas()).subscribe((delta) => out.append(delta))
events$
  .pipe(
    outputText(),
    switchMap((prompt) => textToVideo$(client, { prompt, size: '1280*720', duration: 5 })),
    taskUrls(),
  )
  .subscribe((urls) => (document.querySelector('video').src = urls[0]))
