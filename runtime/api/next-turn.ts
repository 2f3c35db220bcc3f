// A turn of the event loop for long in-process work to give way: resolves
// from a setImmediate callback, so the I/O already waiting (connections,
// requests) is handled before the awaiting work goes on. Start-up work that
// readiness does not wait for (the controllers) awaits it between its steps,
// as kube-controller-manager's goroutines share the CPU with the server's
// rather than hold it: a readiness probe that arrives meanwhile is answered
// at once.

/** Resolves on a later turn of the event loop, after the I/O waiting now. */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}
