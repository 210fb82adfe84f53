// Eclipse Mosquitto's MQTT client library (Debian: libmosquitto-dev, 2.0.x).
#include <mosquitto.h>
