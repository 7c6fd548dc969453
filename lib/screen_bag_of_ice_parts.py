# The modules of the Bag of Ice screen, in the order the app loads them
# before lib/screen_bag_of_ice.py itself, one a loop pass (lib/app.py
# Loading): each imports only those before it. From .py sources a module's
# compile needs about three times its source in free heap, and the heap is
# collected between passes, not within one, so one big screen module grew
# the heap past its cap on entering.
PARTS = ("lib.screen_bag_of_ice_core", "lib.screen_bag_of_ice_keys",
         "lib.screen_bag_of_ice_paint", "lib.screen_bag_of_ice_views",
         "lib.screen_bag_of_ice_draw")
