// What the bench's extension-host entry (entry.ts) and its launcher (../activation.ts) tell each
// other. The host's stdout does not reach the launcher, so the entry writes JSON to a file named
// by an environment variable, which the server passes on to the extension host.

/** File the entry writes its report to (rewritten atomically as it goes). */
export const REPORT_ENV = 'MINTLIFY_BENCH_REPORT';
/** Set on the start that also measures the webview: the entry opens the panel and waits. */
export const WEBVIEW_ENV = 'MINTLIFY_BENCH_WEBVIEW';
/** The launcher creates this file when it is done with the window. */
export const DONE_ENV = 'MINTLIFY_BENCH_DONE';

export const EXTENSION_ID = 'mintlify-agent-analytics.mintlify-agent-analytics';
export const BENCH_PROJECT = 'demo-project';
export const BENCH_KEY = 'mint_bench_host_key';

export interface ActivationReport {
  /** Whether VS Code had already activated the extension (onStartupFinished) when the entry ran. */
  activeAtEntry: boolean;
  /** `await extension.activate()` as the entry saw it (performance.now); only when the entry started it. */
  callerMs: number | undefined;
  /** From VS Code's own marks in the extension host (Date.now resolution, 1 ms). */
  loadCodeMs: number | undefined;
  activateMs: number | undefined;
  /** start(): building the extension's objects in the turn after activate() (performance.now). */
  startMs: number | undefined;
  /** Requests in the extension's own log (its test seam) this long after activation. */
  requests: number;
  quietMs: number;
}

export interface HostReport {
  activation?: ActivationReport;
  /** Opening a docs page → its status-bar readers figure (webview start only). */
  readers?: ReadersTiming;
  /** Opening a docs page → its reader signals in the tooltip, warm (webview start only). */
  signals?: SignalsTiming;
  /** Rows shown by the panel after its first load (webview start only). */
  panelRows?: number;
  error?: string;
}

export interface ReadersTiming {
  coldMs: number[];
  warmMs: number[];
  /** Visitors requests one cold figure took. */
  coldRequests: number;
}

export interface SignalsTiming {
  warmMs: number[];
  /** Requests the one Fetch Reader Signals took. */
  fetchRequests: number;
  /** Drawing the Reader Signals view on the large site (bench/host/signalsDraw.ts). */
  draw?: SignalsDrawTiming;
}

export interface SignalsDrawTiming {
  /** The root and the three groups' rows, each draw after a refresh. */
  drawMs: number[];
  /** Rows in the three groups. */
  rows: number;
  /** One page's tooltip built on hover (resolveTreeItem). */
  hoverMs: number[];
}
