// The client app on the createGateway facade: stream a response into the page,
// then render it as a video. The facade holds every call (responses, tasks,
// tool loops), so its bundle carries them all.
import { createGateway, outputText, taskUrls, textDeltas } from '../../dist/browser/index.js'
import { share, switchMap } from 'rxjs'

const gateway = createGateway({ baseUrl: '/api/rxgate' })
const out = document.querySelector('#out')
const events$ = gateway.responses$({ model: 'gpt-4.1-mini', input: 'Write a video prompt', stream: true }).pipe(share())
events$.pipe(textDeltas()).subscribe((delta) => out.append(delta))
events$
  .pipe(
    outputText(),
    switchMap((prompt) => gateway.textToVideo$({ prompt, size: '1280*720', duration: 5 })),
    taskUrls(),
  )
  .subscribe((urls) => (document.querySelector('video').src = urls[0]))
