# The modules of the bag tool's screen, in the order the app loads them
# before lib/screen_bag.py itself, one a loop pass (lib/app.py Loading):
# each imports only those before it. Compiled from .py sources the screen
# in one module grew the heap past its cap on entering (the compile's
# working memory is only collected between passes).
PARTS = ("lib.screen_bag_core", "lib.screen_bag_keys", "lib.screen_bag_draw")
