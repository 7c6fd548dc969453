# The modules of the Ice Solo screen, in the order the app loads them
# before lib/screen_ice_solo.py itself, one a loop pass (lib/app.py
# Loading): each imports only those before it. From .py sources a module's
# parse tree needs ~100 bytes a code line of free heap while it compiles,
# and the heap is collected between passes, not within one: the screen in
# one module, with its hint, grew the heap past its cap on entering. The
# biggest compile first, while the most heap is free: the hint (the core
# part takes it with engine.state.cold, finding it loaded), the pictures,
# the core, the keys; the screen's own module, the smallest, last.
PARTS = ("engine.ice_solo_hint", "lib.screen_ice_solo_paint",
         "lib.screen_ice_solo_core", "lib.screen_ice_solo_keys")
