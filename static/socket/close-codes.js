// The sockets' close codes (docs/protocol.md), written by `manage.py write_close_codes` from
// game/sockets/base.py: change them there. A test fails while this file differs from them.
export const LOGIN_REQUIRED = 4001;
export const LOGGED_OUT = 4001;
export const FORBIDDEN = 4003;
export const NOT_FOUND = 4004;
export const FLOODING = 4008;
export const TOO_MANY_SOCKETS = 4009;
export const LIVE_PAUSED = 4013;
export const SERVER_ERROR = 4500;
