from primer.experiments import trained_decoder, trained_encoder, translator
from primer.experiments.trained_machines import side_by_side
from primer.figures import choosing as figures
from primer.inputs import decoder, encoder, encoder_decoder

# The runs chapters 6, 7 and 8 print, computed once per build and shared: nothing is trained again here
encoders = trained_encoder.over_seeds(encoder.EXPERIMENT, encoder.SEEDS)
decoders = trained_decoder.over_seeds(decoder.EXPERIMENT, decoder.SEEDS)
translators = [
    translator.translators(decoder.GRAMMAR, **encoder_decoder.TRANSLATION, seed=seed)
    for seed in encoder_decoder.TRANSLATION_SEEDS
]
n_seeds = {"encoder": len(encoders), "decoder": len(decoders), "encoder-decoder": len(translators)}
print(figures.trained_table(side_by_side(encoders, decoders, translators), n_seeds))
