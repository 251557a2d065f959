// autocannon ships no types: the part of its API the load run uses.
declare module 'autocannon' {
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    onResponse?: (status: number, body: string, context: object, headers: Record<string, string>) => void;
  }
  export interface Options {
    url: string;
    connections?: number;
    amount?: number;
    timeout?: number;
    requests?: Request[];
  }
  export interface Result {
    requests: { total: number; average: number };
    latency: { p50: number; p90: number; p99: number; max: number; average: number };
    duration: number;
    errors: number;
    timeouts: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
