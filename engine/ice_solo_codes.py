"""Ice Solo's action codes and phases, shared by the game
(engine/ice_solo.py) and its hint (engine/ice_solo_hint.py), which the
game loads when asked."""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# actions (15 bits): a move is from * 64 + to, cells numbered 8 wide
REMIX = const(4096)
END = const(4097)
STYLE_YES = const(4098)
STYLE_NO = const(4099)
PLACE = const(4100)       # + piece code: a dealt/scattered piece, "=r3"
EMPTY = const(4163)       # a scatter cell left empty, "=-"
DEAL_OK = const(4164)     # a deal checkpoint accepts the proposed cells, "=ok"
DEAL_REDO = const(4165)   # ... or sends them back, "=redo"
TARGET = const(4200)      # + field cell: where a remixed piece lands, "@c5"

# internal phases
P_DEAL = const(0)      # chance: dealing towers into the grid
P_SCATTER = const(1)   # chance: scattering the field
P_TOWER = const(2)
P_REMIX = const(3)     # chance: remixed pieces landing
P_NEST = const(4)
P_OVER = const(5)      # ended by the player or judged
