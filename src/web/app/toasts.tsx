import { ToastContainer } from 'react-toastify';
import 'react-toastify/dist/ReactToastify.css';
import { TIMINGS } from '../../contract/constants.js';

/**
 * The app's one toast container, with react-toastify's stylesheet: a chunk of its own that the root
 * layout mounts once the visitor is on a page that can toast (every page but the landing page;
 * docs/decisions/141). A toast sent before it is mounted waits in react-toastify's queue.
 */
export default function Toasts() {
  return <ToastContainer position="top-right" autoClose={TIMINGS.toastAutoCloseMs} newestOnTop closeOnClick={false} />;
}
