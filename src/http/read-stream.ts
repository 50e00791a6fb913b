// Reading a body stream with a ceiling, for the request bodies the API takes and the receiver
// answers webhook deliveries get: neither may make the mock hold more than its limit.

/** Reads until the stream ends or more than `limit` bytes arrived (then the stream is cancelled). */
export async function readUpTo(stream: ReadableStream<Uint8Array>, limit: number): Promise<{ bytes: Buffer; over: boolean }> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(chunks), over: false };
    chunks.push(value);
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      return { bytes: Buffer.concat(chunks), over: true };
    }
  }
}
