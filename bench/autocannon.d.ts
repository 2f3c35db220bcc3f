// Minimal types for autocannon (the package ships none): what the benches use.
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      /** Stop after this many requests (instead of after duration). */
      amount?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      /** TLS options of the connections (ca, cert, key); autocannon never verifies the server. */
      tlsOptions?: { ca?: string; cert?: string; key?: string };
      pipelining?: number;
      requests?: { setupRequest?: (req: any) => any; method?: string; path?: string; body?: string }[];
    }
    interface Histogram {
      average: number;
      /** The count over the whole run (requests, bytes). */
      total: number;
      mean: number;
      p50: number;
      p99: number;
      min: number;
      max: number;
    }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      throughput: Histogram;
      non2xx: number;
      errors: number;
    }
  }
  function autocannon(opts: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
