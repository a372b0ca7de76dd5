// What the simulator answers, as plain data, and the path handling shared by routing and recording.

export interface Reply {
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

export function jsonReply(status: number, value: unknown, headers?: Record<string, string>): Reply {
  return { status, contentType: 'application/json; charset=utf-8', body: JSON.stringify(value), ...(headers && { headers }) };
}

/** The API's error shape: {error} plus, for validation failures, details: [{message}]. */
export function errorReply(status: number, error: string, details?: string[], headers?: Record<string, string>): Reply {
  return jsonReply(status, details ? { error, details: details.map((message) => ({ message })) } : { error }, headers);
}

export interface SplitPath {
  /** Decoded segments; a segment that is not valid percent-encoding is kept raw. */
  segments: string[];
  /** False if some segment did not decode: such a path matches no route. */
  decoded: boolean;
}

/** Splits on the raw '/' first and decodes afterwards, so an encoded '%2F' stays inside its segment. */
export function splitPath(rawPath: string): SplitPath {
  let decoded = true;
  const segments = rawPath.split('/').map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      decoded = false;
      return segment;
    }
  });
  return { segments, decoded };
}
