// The rxjs an app like rxgate-app already has (every Angular app does): the
// baseline that rxgate's marginal size is measured over.
import { map, Observable, share, switchMap } from 'rxjs'

const out = document.querySelector('#out')
const text$ = new Observable((subscriber) => {
  const source = new EventSource('/api/stream')
  source.onmessage = (e) => subscriber.next(e.data)
  return () => source.close()
}).pipe(share())
text$.subscribe((delta) => out.append(delta))
text$
  .pipe(
    map((text) => text.trim()),
    switchMap((prompt) => fetch(`/api/video?prompt=${encodeURIComponent(prompt)}`).then((r) => r.json())),
  )
  .subscribe((urls) => (document.querySelector('video').src = urls[0]))
