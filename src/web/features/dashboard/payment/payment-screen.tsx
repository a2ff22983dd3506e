export { PaymentScreen } from "../dashboard-screens";
