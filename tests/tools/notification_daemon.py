"""A desktop notification daemon for the tests: owns org.freedesktop.Notifications on the
D-Bus session bus at $DBUS_SESSION_BUS_ADDRESS (a private bus the test starts) and appends
every Notify call to the file given as argv[1], one JSON object per line. It writes the line
"ready" first, once it owns the name. Needs dbus-next (pip install dbus-next)."""

import asyncio
import json
import sys

from dbus_next.aio import MessageBus
from dbus_next.service import ServiceInterface, method

LOG = sys.argv[1]


class Notifications(ServiceInterface):
    def __init__(self):
        super().__init__("org.freedesktop.Notifications")
        self.next_id = 0

    @method()
    def Notify(self, app_name: "s", replaces_id: "u", app_icon: "s", summary: "s", body: "s",
               actions: "as", hints: "a{sv}", expire_timeout: "i") -> "u":
        self.next_id += 1
        with open(LOG, "a", encoding="utf-8") as f:
            f.write(json.dumps({"app_name": app_name, "summary": summary, "body": body}, ensure_ascii=False) + "\n")
        return self.next_id

    @method()
    def GetCapabilities(self) -> "as":
        return ["body"]

    @method()
    def GetServerInformation(self) -> "ssss":
        return ["zhiwen-test", "zhiwen", "1", "1.2"]

    @method()
    def CloseNotification(self, id: "u"):
        pass


async def main():
    bus = await MessageBus().connect()
    bus.export("/org/freedesktop/Notifications", Notifications())
    await bus.request_name("org.freedesktop.Notifications")
    with open(LOG, "a", encoding="utf-8") as f:
        f.write("ready\n")
    await bus.wait_for_disconnect()


asyncio.run(main())
