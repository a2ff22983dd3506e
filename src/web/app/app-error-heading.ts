/**
 * The heading of the app-level error page, fixed by the spec: 'Unexpected Application Error!', in
 * every language. A module of its own: the recording page's entry shows it too, without the app's
 * error page and its dependencies (router, public shell, menus).
 */
export const APP_ERROR_HEADING = 'Unexpected Application Error!';
