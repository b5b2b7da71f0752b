// Preloaded (`node --import`) into every run of a README block: a server the
// block starts listens on 127.0.0.1, whatever host it names or leaves out, so
// running the README never opens a port beyond this machine. Unix sockets and
// handles pass unchanged.
import net from 'node:net'

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost'])
const listen = net.Server.prototype.listen

net.Server.prototype.listen = function (...args) {
  const [first] = args
  if (first !== null && typeof first === 'object') {
    const isOptions = !('_handle' in first) && !('fd' in first) && first.path === undefined
    if (isOptions && !LOOPBACK.has(first.host)) args[0] = { ...first, host: '127.0.0.1' }
  } else if (typeof first !== 'string' || /^\d+$/.test(first)) {
    // listen(), listen(callback), listen(port, [host], [backlog], [callback])
    if (typeof first === 'function') args.unshift(0)
    else if (first === undefined) args[0] = 0
    if (typeof args[1] === 'string') {
      if (!LOOPBACK.has(args[1])) args[1] = '127.0.0.1'
    } else args.splice(1, 0, '127.0.0.1')
  }
  return listen.apply(this, args)
}
