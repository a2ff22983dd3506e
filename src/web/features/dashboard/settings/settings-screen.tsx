export { SettingsScreen } from "../dashboard-screens";
