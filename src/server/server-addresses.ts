/** The server's own addresses, beside the client's: where the API, its documentation and socket.io are mounted. */
export const API_PREFIX = "/api";
export const API_DOCS_PREFIX = `${API_PREFIX}/docs`;
export const SOCKET_PATH = "/socket.io";

const API_PATHS = `${API_PREFIX}/`;
const SOCKET_PATHS = `${SOCKET_PATH}/`;

/** `/api` itself or a path under it. */
export const isApiPath = (path: string) => path === API_PREFIX || path.startsWith(API_PATHS);

/** The API's or socket.io's: never one of the client's own addresses. */
export const isServerPath = (path: string) => isApiPath(path) || path === SOCKET_PATH || path.startsWith(SOCKET_PATHS);
