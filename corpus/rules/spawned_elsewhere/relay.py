from .base import RelayBase
from .pump import UpdatePumpMethods


class Relay(UpdatePumpMethods, RelayBase):
    def dispatch(self, update):
        print(update)
