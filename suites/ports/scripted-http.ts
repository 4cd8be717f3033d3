// The HTTP primitives of a scripted server (client role, HTTP): the origin of the MCP endpoint can
// serve other routes, a gate can answer a request to the endpoint before the script sees it, notes
// go into the run's recording, and the headless browser's visits are handed over. A scenario's
// profile of a peer (what else that origin plays, how it refuses) is built on these; the runner
// implements them and names no profile.

/** A plain HTTP request that reached the scripted server. */
export interface HttpRequest {
  method: string;
  /** The full URL (the server's origin, the path and the query). */
  url: URL;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The body's text ('' for none); undefined when it was not read (a GET to the MCP endpoint) or is over the size limit. */
  body: string | undefined;
}

/** What the scripted server answers to a plain HTTP request. */
export interface HttpAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * A request a route may take. `record()` puts the request in the run's recording (once; the body, or
 * the query when there is none, as its text) and gives its sequence number; `answer()` records the
 * request if that was not done yet, then records and sends the answer, and gives the answer's
 * sequence number. Answer once.
 */
export interface HttpExchange extends HttpRequest {
  record(): number;
  answer(a: HttpAnswer): number;
}

/**
 * A route on the MCP endpoint's origin, for requests to any other path: it answers the exchange, or
 * leaves it (no answer) to the next route; a request no route answers gets 404, unrecorded.
 * A route that throws gets the request a 500.
 */
export type HttpRoute = (x: HttpExchange) => void | Promise<void>;

/** A request to the MCP endpoint, before the script sees it. */
export interface GatedRequest extends HttpRequest {
  /** The body parsed as JSON (absent when it is not JSON). */
  message?: unknown;
}

/**
 * What a request to the MCP endpoint passes first: undefined lets it through to the script; an
 * answer is sent instead (the request is recorded with `data.refused` = its status and logged as
 * received with `refused`, and the script never sees it).
 */
export type HttpGate = (req: GatedRequest) => HttpAnswer | undefined | Promise<HttpAnswer | undefined>;

/**
 * What mcpspec's headless browser (Scenario.headlessBrowser) reports after loading a URL a client
 * opened: the URLs it loaded, in order, and how the last one (normally the client's own callback)
 * answered, or why it could not be loaded.
 */
export interface BrowserVisit {
  visited: string[];
  /** HTTP status of the last URL loaded. */
  status?: number;
  /** Why the last URL could not be loaded (ECONNREFUSED, a timeout, ...). */
  error?: string;
}

/** The HTTP primitives of a scripted server (ScriptedServer.http). */
export interface ScriptedHttp {
  /** The MCP endpoint clients connect to. */
  readonly url: string;
  /** Serve another route on the endpoint's origin (tried in the order added). */
  route(r: HttpRoute): void;
  /** Put a gate before the MCP endpoint (replacing the one before, if any). */
  gate(g: HttpGate): void;
  /** Record a note in the run's recording (`label` names what kind); its sequence number. */
  note(label: string, text: string, data?: Record<string, unknown>): number;
  /**
   * Be told of each report of the headless browser, with the recording sequence number of the note
   * the runner records for it.
   */
  onBrowserVisit(listener: (visit: BrowserVisit, seq: number) => void): void;
}
